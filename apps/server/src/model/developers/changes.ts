import {
  type DeveloperApplicationUpdate,
  developerApplicationUpdateSchema,
  type FieldChange,
  type PendingChange,
  type ReviewedField,
  reviewedFields,
} from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { applicationsIn, lockApplication, lockedApplication } from "../apps/for-developers.ts";
import { applyEdit, checkEdit } from "./store.ts";

/**
 * Pending changes (issue 56): what the operators' review approved is what runs. On a live application an owner's
 * edit is stored here and the live values keep working (tickets, OpenID Connect, the apps page read only
 * `applications`) until an operator approves exactly this change, named by its id.
 */

/** Whether an edit to this application waits for an operator: it is live, so its review has been approved. */
export function editNeedsApproval(application: Pick<ApplicationRow, "lifecycle">): boolean {
  return application.lifecycle === "live";
}

/** Each reviewed field's live value as the developers' API writes it (lists; a single value is a list of one). */
function liveValue(row: ApplicationRow, field: ReviewedField): string[] {
  const single = (value: string) => (value ? [value] : []);
  switch (field) {
    case "title":
      return single(row.title);
    case "titleEn":
      return single(row.title_en);
    case "description":
      return single(row.description);
    case "descriptionEn":
      return single(row.description_en);
    case "iconUrl":
      return single(row.icon_url);
    case "homePageUrl":
      return single(row.home_page_url);
    case "privacyPolicyUrl":
      return single(row.privacy_policy_url);
    case "callbackUrls":
      return [row.callback_url, ...row.extra_callback_urls].filter(Boolean);
    case "redirectUris":
      return row.redirect_uris;
    case "scopes":
      return row.allowed_scopes;
  }
}

/** The asked-for value in the same form, normalised as applyEdit stores it (no repeats, openid always). */
function askedValue(update: DeveloperApplicationUpdate, field: ReviewedField): string[] | undefined {
  const value = update[field];
  if (value === undefined) return undefined;
  if (field === "scopes") return [...new Set(["openid", ...(value as string[])])];
  if (Array.isArray(value)) return [...new Set(value)];
  return value ? [value] : [];
}

const same = (left: string[], right: string[]) =>
  left.length === right.length && left.every((value, index) => value === right[index]);

/** The fields of the edit that differ from the live application, old → new. */
export function differences(row: ApplicationRow, update: DeveloperApplicationUpdate): FieldChange[] {
  return reviewedFields.flatMap((field) => {
    const after = askedValue(update, field);
    const before = liveValue(row, field);
    return after === undefined || same(before, after) ? [] : [{ field, before, after }];
  });
}

/** Only the differing fields of an edit, as an edit. */
function changedOnly(row: ApplicationRow, update: DeveloperApplicationUpdate): DeveloperApplicationUpdate {
  const changed = new Set(differences(row, update).map((change) => change.field));
  return Object.fromEntries(Object.entries(update).filter(([field]) => changed.has(field as ReviewedField)));
}

/**
 * Stores an owner's edit of a live application as its pending change. A pending change asked before is merged
 * into the new one and marked replaced, so the operator decides one change with one id; an edit that brings
 * every field back to its live value withdraws it. Answers the pending change's id (null when none is left) and
 * whether one asked before was withdrawn so.
 */
export async function requestChange(
  db: Db,
  application: ApplicationRow,
  userId: string,
  update: DeveloperApplicationUpdate,
): Promise<{ changeId: string | null; withdrew: boolean }> {
  return db.transaction().execute(async (tx) => {
    // One edit of an application at a time: two at once would both find no pending change and both add one.
    await lockApplication(tx, application.id);
    const previous = await tx
      .selectFrom("application_changes")
      .select(["id", "changes"])
      .where("application_id", "=", application.id)
      .where("status", "=", "pending")
      .forUpdate()
      .executeTakeFirst();
    const earlier = previous ? developerApplicationUpdateSchema.parse(previous.changes) : {};
    const merged = changedOnly(application, { ...earlier, ...developerApplicationUpdateSchema.parse(update) });
    await checkEdit(tx, application, merged);
    if (previous) {
      await tx
        .updateTable("application_changes")
        .set({ status: Object.keys(merged).length ? "replaced" : "withdrawn", decided_at: new Date() })
        .where("id", "=", previous.id)
        .execute();
    }
    if (Object.keys(merged).length === 0) return { changeId: null, withdrew: previous !== undefined };
    const inserted = await tx
      .insertInto("application_changes")
      .values({ application_id: application.id, requested_by: userId, changes: JSON.stringify(merged) })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { changeId: inserted.id, withdrew: false };
  });
}

/** The owner takes back the pending change they saw; 409 developer.change_not_pending for any other. */
export async function withdrawChange(db: Db, applicationId: string, changeId: string): Promise<void> {
  const withdrawn = await db
    .updateTable("application_changes")
    .set({ status: "withdrawn", decided_at: new Date() })
    .where("id", "=", changeId)
    .where("application_id", "=", applicationId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (Number(withdrawn.numUpdatedRows) === 0) throw new AppError("developer.change_not_pending");
}

/** The newest change the owner asked for, for their page: pending, or the operator's answer; null once withdrawn. */
export async function latestChange(db: Db, row: ApplicationRow): Promise<PendingChange | null> {
  const change = await db
    .selectFrom("application_changes")
    .selectAll()
    .where("application_id", "=", row.id)
    .where("status", "!=", "replaced")
    .orderBy("requested_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!change || change.status === "withdrawn" || change.status === "replaced") return null;
  return {
    id: change.id,
    status: change.status,
    // After approval the live values are the new ones: the page shows what was asked for.
    changes: differencesAsAsked(row, developerApplicationUpdateSchema.parse(change.changes), change.status),
    reason: change.decision_reason,
    requestedAt: change.requested_at.toISOString(),
    decidedAt: change.decided_at?.toISOString() ?? null,
  };
}

function differencesAsAsked(row: ApplicationRow, update: DeveloperApplicationUpdate, status: PendingChange["status"]) {
  if (status !== "approved") return differences(row, update);
  return reviewedFields.flatMap((field) => {
    const after = askedValue(update, field);
    return after === undefined ? [] : [{ field, before: [], after }];
  });
}

/** Every pending change, oldest first, with its application, for the operators' review queue. */
export async function pendingChanges(db: Db) {
  const pending = await db
    .selectFrom("application_changes")
    .select([
      "id as change_id",
      "application_id",
      "changes",
      "requested_at as change_requested_at",
      "unit_approved_unit_id",
      "unit_approved_by",
      "unit_approved_at",
    ])
    .where("status", "=", "pending")
    .orderBy("requested_at")
    .execute();
  const applications = new Map(
    (
      await applicationsIn(
        db,
        pending.map((change) => change.application_id),
      )
    ).map((row) => [row.id, row]),
  );
  return pending.flatMap(({ application_id, ...change }) => {
    const application = applications.get(application_id);
    return application ? [{ ...application, ...change }] : [];
  });
}

/**
 * An operator's answer to the pending change with this id (409 admin.review_outdated when the pending one is
 * another: the owner changed it after the operator looked). Approval checks it again and writes it to the
 * application; rejection leaves the live values as they are.
 */
export async function decideChange(
  db: Db,
  applicationId: string,
  changeId: string,
  operatorId: string,
  decision: { decision: "approved" } | { decision: "rejected"; reason: string },
) {
  return db.transaction().execute(async (tx) => {
    // The application row first, as requestChange takes them: the other order lets the two deadlock.
    const application = await lockedApplication(tx, applicationId);
    const pending = await tx
      .selectFrom("application_changes")
      .select(["id", "changes"])
      .where("application_id", "=", applicationId)
      .where("status", "=", "pending")
      .forUpdate()
      .executeTakeFirst();
    if (!application || !pending) throw new AppError("admin.review_not_pending");
    if (pending.id !== changeId) throw new AppError("admin.review_outdated");
    const reason = decision.decision === "rejected" ? decision.reason : "";
    await tx
      .updateTable("application_changes")
      .set({ status: decision.decision, decision_reason: reason, decided_by: operatorId, decided_at: new Date() })
      .where("id", "=", pending.id)
      .execute();
    if (decision.decision === "rejected") return { application, reason };
    const update = developerApplicationUpdateSchema.parse(pending.changes);
    await checkEdit(tx, application, update);
    return { application: await applyEdit(tx, application, update), reason };
  });
}
