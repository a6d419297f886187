import { type ErasedCounts, erasedKinds } from "@kpi-id/contracts";
import { anonymiseAuditRowsOf } from "../../platform/audit/erasure.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { anonymiseAccount, personalFields } from "../users/anonymise.ts";
import { isOnlyAdmin } from "../users/operator-roles.ts";
import { retireUsername } from "../users/retired-usernames.ts";
import { personDataAreas } from "./areas.ts";

// Each table's rows go through its owner (scripts/dependencies/table-owners.ts), all in the caller's transaction.

/**
 * Refuses what must not be erased: someone already erased, the operator's own data (an operator never
 * locks themselves out by a slip), and the last admin (the console would have no one left to run it).
 */
export async function assertErasable(db: Db, person: User, actorId: string | undefined): Promise<void> {
  if (person.anonymised_at) throw new AppError("admin.person_erased");
  if (actorId === person.id) throw new AppError("admin.erase_self");
  if (await isOnlyAdmin(db, person.id)) throw new AppError("admin.erase_last_admin");
}

/**
 * Removes a person's personal data and keeps their row as a nameless, disabled stub: the id stays the
 * pseudonymous reference of their audit rows and of the subject applications know, the username is
 * retired (never given to anyone again), and no sign-in method is left. Run inside the caller's
 * transaction; the caller writes the `person_erased` row. Answers what went, kind by kind.
 */
export async function anonymisePerson(db: Db, person: User, now: Date): Promise<ErasedCounts> {
  const counts: Record<string, number> = Object.fromEntries(erasedKinds.map((kind) => [kind, 0]));
  counts.profileFields = personalFields.filter((field) => person[field] !== null && person[field] !== "").length;
  // Each area removes its own rows (areas.ts); what they answer adds up kind by kind.
  for (const area of personDataAreas) {
    const share = (await area.erase?.(db, person, now)) ?? {};
    for (const [kind, count] of Object.entries(share)) counts[kind] = (counts[kind] ?? 0) + (count ?? 0);
  }
  // After every area: erasing writes audit rows of its own (invitations withdrawn), which go nameless too.
  counts.auditRows = await anonymiseAuditRowsOf(db, person.id);
  await retireUsername(db, person.username, now);
  await anonymiseAccount(db, person, now);
  return Object.fromEntries(erasedKinds.map((kind) => [kind, counts[kind]])) as ErasedCounts;
}
