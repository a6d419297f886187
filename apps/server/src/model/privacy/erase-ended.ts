import type { ErasedCounts } from "@kpi-id/contracts";
import { recordAuditEvent } from "../../platform/audit/record.ts";
import type { Db } from "../../platform/db/schema.ts";
import { lockedPerson } from "../users/queries.ts";
import { anonymisePerson } from "./erase.ts";

/**
 * Anonymises a person whose time with the university ended and whose retention is over (an ended guest after
 * GUEST_ERASE_AFTER_DAYS), with its `person_erased` row naming `reason`. Under a row lock, so two instances
 * erase once; undefined when the person was already erased or is active again.
 */
export async function eraseAfterRetention(
  db: Db,
  userId: string,
  now: Date,
  reason: string,
): Promise<ErasedCounts | undefined> {
  return db.transaction().execute(async (trx) => {
    const person = await lockedPerson(trx, userId);
    if (!person || person.anonymised_at || person.status !== "disabled") return undefined;
    const erased = await anonymisePerson(trx, person, now);
    await recordAuditEvent(trx, {
      type: "person_erased",
      result: "success",
      userId,
      reason,
      occurredAt: now,
      details: { erased, via: "retention" },
    });
    return erased;
  });
}
