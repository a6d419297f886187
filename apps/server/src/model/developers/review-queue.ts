import { developerApplicationUpdateSchema, type ReviewQueue } from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { differences, pendingChanges } from "./changes.ts";
import { reviewedValues } from "./view.ts";

/**
 * Every pending request, oldest first: new applications asking to go live with what they would receive, and live
 * applications' pending changes with their live values and each changed field old → new.
 */
export async function reviewQueue(db: Db): Promise<ReviewQueue> {
  const rows = await db
    .selectFrom("application_reviews")
    .innerJoin("applications", "applications.id", "application_reviews.application_id")
    .selectAll("applications")
    .select([
      "application_reviews.id as review_id",
      "application_reviews.purpose",
      "application_reviews.data_needed",
      "application_reviews.requested_at",
    ])
    .where("application_reviews.decision", "is", null)
    .orderBy("application_reviews.requested_at")
    .execute();
  const changes = await pendingChanges(db);
  const ids = [...rows, ...changes].map((row) => row.id);
  const owners = await db
    .selectFrom("application_owners")
    .innerJoin("users", "users.id", "application_owners.user_id")
    .select(["application_owners.application_id", "users.username"])
    .where("application_owners.application_id", "in", ids.length ? ids : ["00000000-0000-0000-0000-000000000000"])
    .execute();
  const live = (row: ApplicationRow) => ({
    applicationId: row.id,
    ...reviewedValues(row),
    owners: owners.filter((owner) => owner.application_id === row.id).map((owner) => owner.username),
  });
  const changeRequests = changes.map((row) => ({
    ...live(row),
    kind: "change" as const,
    requestId: row.change_id,
    changes: differences(row, developerApplicationUpdateSchema.parse(row.changes)),
    purpose: "",
    dataNeeded: "",
    requestedAt: row.change_requested_at.toISOString(),
  }));
  return {
    reviews: [
      ...rows.map((row) => ({
        ...live(row),
        kind: "review" as const,
        requestId: row.review_id,
        changes: [],
        purpose: row.purpose,
        dataNeeded: row.data_needed,
        requestedAt: row.requested_at.toISOString(),
      })),
      ...changeRequests,
    ].sort((left, right) => left.requestedAt.localeCompare(right.requestedAt)),
  };
}

/** Whether the request named is one of the application's pending changes (whatever its state now), not its review. */
export async function isChangeOf(db: Db, applicationId: string, requestId: string): Promise<boolean> {
  const row = await db
    .selectFrom("application_changes")
    .select("id")
    .where("id", "=", requestId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  return row !== undefined;
}
