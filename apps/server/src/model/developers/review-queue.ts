import { developerApplicationUpdateSchema, type ReviewQueue } from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { applicationsIn } from "../apps/for-developers.ts";
import { peopleNamesByIds } from "../users/queries.ts";
import { differences, pendingChanges } from "./changes.ts";
import { type UnitApprovalColumns, withUnitApprovals } from "./unit-approval.ts";
import { reviewedValues } from "./view.ts";

/**
 * Every pending request, oldest first: new applications asking to go live with what they would receive, and live
 * applications' pending changes with their live values and each changed field old → new.
 */
export async function reviewQueue(db: Db): Promise<ReviewQueue> {
  const reviews = await db
    .selectFrom("application_reviews")
    .select([
      "id as review_id",
      "application_id",
      "purpose",
      "data_needed",
      "requested_at",
      "unit_approved_unit_id",
      "unit_approved_by",
      "unit_approved_at",
    ])
    .where("decision", "is", null)
    .orderBy("requested_at")
    .execute();
  const applications = new Map(
    (
      await applicationsIn(
        db,
        reviews.map((review) => review.application_id),
      )
    ).map((row) => [row.id, row]),
  );
  const rows = reviews.flatMap(({ application_id, ...review }) => {
    const application = applications.get(application_id);
    return application ? [{ ...application, ...review }] : [];
  });
  const changes = await pendingChanges(db);
  const ids = [...rows, ...changes].map((row) => row.id);
  const ownerRows = ids.length
    ? await db
        .selectFrom("application_owners")
        .select(["application_id", "user_id"])
        .where("application_id", "in", ids)
        .execute()
    : [];
  const names = await peopleNamesByIds(
    db,
    ownerRows.map((owner) => owner.user_id),
  );
  const owners = ownerRows.flatMap((owner) => {
    const username = names.get(owner.user_id)?.username;
    return username === undefined ? [] : [{ application_id: owner.application_id, username }];
  });
  const live = (row: ApplicationRow & UnitApprovalColumns) => ({
    approval: {
      unit_approved_unit_id: row.unit_approved_unit_id,
      unit_approved_by: row.unit_approved_by,
      unit_approved_at: row.unit_approved_at,
    },
    unitId: row.unit_id,
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
  const items = [
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
  ].sort((left, right) => left.requestedAt.localeCompare(right.requestedAt));
  return { reviews: await withUnitApprovals(db, items) };
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
