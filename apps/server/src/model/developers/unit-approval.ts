import type { ReviewQueue } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockedApplication } from "../apps/for-developers.ts";
import { findUnitById, reviewsFinalIn } from "../people/units.ts";
import { peopleNamesByIds } from "../users/queries.ts";

/**
 * A unit admin's first approval (issue 79): where the operators have not let the unit's decisions be final, the
 * unit admin's approval of their unit's application is recorded on the pending request, which stays pending for
 * central IT. The same checks as a decision: the request named must be the one pending (409
 * `admin.review_outdated`), and one the unit approved already waits (409 `admin.review_awaits_central`).
 */
export async function approveInUnit(
  db: Db,
  request: { applicationId: string; requestId: string; kind: "review" | "change" },
  operatorId: string,
  unitId: string,
): Promise<void> {
  const approval = { unit_approved_unit_id: unitId, unit_approved_by: operatorId, unit_approved_at: new Date() };
  await db.transaction().execute(async (tx) => {
    if (request.kind === "change") {
      // The application row first, as requestChange and decideChange take them.
      await lockedApplication(tx, request.applicationId);
      const pending = await tx
        .selectFrom("application_changes")
        .select(["id", "unit_approved_at"])
        .where("application_id", "=", request.applicationId)
        .where("status", "=", "pending")
        .forUpdate()
        .executeTakeFirst();
      checkPending(pending, request.requestId);
      await tx.updateTable("application_changes").set(approval).where("id", "=", request.requestId).execute();
      return;
    }
    const pending = await tx
      .selectFrom("application_reviews")
      .select(["id", "unit_approved_at"])
      .where("application_id", "=", request.applicationId)
      .where("decision", "is", null)
      .forUpdate()
      .executeTakeFirst();
    checkPending(pending, request.requestId);
    await tx.updateTable("application_reviews").set(approval).where("id", "=", request.requestId).execute();
  });
}

function checkPending(pending: { id: string; unit_approved_at: Date | null } | undefined, requestId: string) {
  if (!pending) throw new AppError("admin.review_not_pending");
  if (pending.id !== requestId) throw new AppError("admin.review_outdated");
  if (pending.unit_approved_at) throw new AppError("admin.review_awaits_central");
}

/** Whether the unit admin's approval is final for an application of this unit (null: central IT's, never). */
export function unitDecisionIsFinal(db: Db, unitId: string | null): Promise<boolean> {
  return unitId ? reviewsFinalIn(db, unitId) : Promise.resolve(false);
}

type QueueItem = ReviewQueue["reviews"][number];
export interface UnitApprovalColumns {
  unit_approved_unit_id: string | null;
  unit_approved_by: string | null;
  unit_approved_at: Date | null;
}

/**
 * The queue's items with their two-step state: the first approval a unit admin gave (its unit, who, when) and
 * whether a unit admin's approval of each is final. A handful of requests wait at a time: one look-up each.
 */
export async function withUnitApprovals(
  db: Db,
  items: (QueueItem & { approval: UnitApprovalColumns; unitId: string | null })[],
): Promise<QueueItem[]> {
  const names = await peopleNamesByIds(
    db,
    items.flatMap((item) => (item.approval.unit_approved_by ? [item.approval.unit_approved_by] : [])),
  );
  return Promise.all(
    items.map(async ({ approval, unitId, ...item }) => {
      const unit = approval.unit_approved_unit_id ? await findUnitById(db, approval.unit_approved_unit_id) : undefined;
      const unitApproval =
        approval.unit_approved_at && approval.unit_approved_unit_id
          ? {
              unit: {
                id: approval.unit_approved_unit_id,
                code: unit?.code ?? "",
                nameUk: unit?.name_uk ?? "",
                nameEn: unit?.name_en ?? "",
              },
              by: approval.unit_approved_by ? (names.get(approval.unit_approved_by)?.username ?? null) : null,
              at: approval.unit_approved_at.toISOString(),
            }
          : null;
      return { ...item, unitApproval, unitFinal: await unitDecisionIsFinal(db, unitId) };
    }),
  );
}
