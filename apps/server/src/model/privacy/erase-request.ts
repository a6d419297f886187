import type { ErasedCounts } from "@kpi-id/contracts";
import { recordAuditEvent } from "../../platform/audit/record.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockedPerson } from "../users/queries.ts";
import { anonymisePerson, assertErasable } from "./erase.ts";

export interface ErasureRequest {
  /** The operator erasing (the console's); undefined at the command line, which names itself in `via`. */
  actorId?: string;
  via: "console" | "cli";
  ip?: string;
  userAgent?: string;
  now: Date;
  /** Sessions the caller already ended (the console, which tells applications first): counted with the rest. */
  sessionsEnded?: number;
}

/**
 * An operator's erasure of one person on request (docs/privacy.md, "Erasure"): refused for someone already
 * erased, the operator themselves and the last admin; otherwise the person is anonymised in one transaction
 * with its `person_erased` row (reason `privacy.request`), which keeps what went, kind by kind.
 */
export async function erasePersonOnRequest(db: Db, person: User, request: ErasureRequest): Promise<ErasedCounts> {
  return db.transaction().execute(async (trx) => {
    // Read again under a row lock: two operators erasing at once erase once.
    const current = await lockedPerson(trx, person.id);
    if (!current) throw new AppError("admin.person_not_found");
    await assertErasable(trx, current, request.actorId);
    const removed = await anonymisePerson(trx, current, request.now);
    const erased = { ...removed, sessions: removed.sessions + (request.sessionsEnded ?? 0) };
    await recordAuditEvent(trx, {
      type: "person_erased",
      result: "success",
      userId: person.id,
      actorId: request.actorId,
      reason: "privacy.request",
      ip: request.ip,
      userAgent: request.userAgent,
      occurredAt: request.now,
      details: { erased, via: request.via },
    });
    return erased;
  });
}
