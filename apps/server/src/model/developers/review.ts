import type { ApplicationReview, ReviewDecision, ReviewRequest } from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { addDefaultRulesIfNone } from "../access/rules.ts";
import { setApplicationLifecycle, updateApplicationIf } from "../apps/queries.ts";
import { checkDeveloperUris } from "./uris.ts";

/** The newest review request of the application and its answer, or null before the first. */
export async function latestReview(db: Db, applicationId: string): Promise<ApplicationReview | null> {
  const row = await db
    .selectFrom("application_reviews")
    .selectAll()
    .where("application_id", "=", applicationId)
    .orderBy("requested_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    status: row.decision ?? "pending",
    purpose: row.purpose,
    dataNeeded: row.data_needed,
    reason: row.decision_reason,
    requestedAt: row.requested_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/**
 * An owner asks to go live: from testing or after a rejection, not while suspended. A live application may
 * only have https or development addresses, so those are checked now as well as at approval.
 */
export async function requestReview(db: Db, application: ApplicationRow, userId: string, request: ReviewRequest) {
  const open = application.lifecycle === "testing" || application.lifecycle === "rejected";
  if (!open || application.suspended_at) throw new AppError("developer.review_not_possible");
  checkLiveAddresses(application);
  await db.transaction().execute(async (tx) => {
    const moved = await updateApplicationIf(tx, application.id, { lifecycle: "in_review", updated_at: new Date() }, [
      "testing",
      "rejected",
    ]);
    if (!moved) throw new AppError("developer.review_not_possible");
    await tx
      .insertInto("application_reviews")
      .values({
        application_id: application.id,
        requested_by: userId,
        purpose: request.purpose,
        data_needed: request.dataNeeded,
      })
      .execute();
  });
}

/**
 * A live application's addresses are https ones or development ones on this computer: checked at the request and
 * again at approval (an address stored under older rules is named, so the owner knows which to change).
 */
function checkLiveAddresses(application: ApplicationRow): void {
  const callbacks = [application.callback_url, ...application.extra_callback_urls].filter(Boolean);
  checkDeveloperUris({ callbackUrls: callbacks, redirectUris: application.redirect_uris });
}

/**
 * An operator's answer to the pending request. Approval makes the application live; with no access rule yet it
 * gets the default one (every active employee and every studying student: `status` of a current record), so it
 * works for the campus at once and the operator narrows it in the console as for any application.
 */
export async function decideReview(db: Db, applicationId: string, operatorId: string, decision: ReviewDecision) {
  return db.transaction().execute(async (tx) => {
    const pending = await tx
      .selectFrom("application_reviews")
      .select("id")
      .where("application_id", "=", applicationId)
      .where("decision", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!pending) throw new AppError("admin.review_not_pending");
    // The operator decides the request they read: one asked again since (after a rejection) is read first.
    if (pending.id !== decision.requestId) throw new AppError("admin.review_outdated");
    const now = new Date();
    const reason = decision.decision === "rejected" ? decision.reason : "";
    await tx
      .updateTable("application_reviews")
      .set({ decision: decision.decision, decision_reason: reason, decided_by: operatorId, decided_at: now })
      .where("id", "=", pending.id)
      .execute();
    const lifecycle = decision.decision === "approved" ? "live" : "rejected";
    const row = await setApplicationLifecycle(tx, applicationId, lifecycle, now);
    // An address written since the request must not go live on http: refused, the transaction undoes the answer.
    if (decision.decision === "approved") checkLiveAddresses(row);
    if (decision.decision === "approved") await addDefaultRulesIfNone(tx, applicationId);
    return { application: row, reason };
  });
}

/** An operator stops or resumes every sign-in to the application. */
export async function setSuspension(db: Db, applicationId: string, suspended: boolean, reason: string) {
  return updateApplicationIf(db, applicationId, {
    suspended_at: suspended ? new Date() : null,
    suspension_reason: suspended ? reason : "",
    updated_at: new Date(),
  });
}
