import { type ErasedCounts, erasedKinds } from "@kpi-id/contracts";
import { type AuditEvent, recordAuditEvents } from "../../platform/audit/record.ts";
import type { Db } from "../../platform/db/schema.ts";
import { peopleLeftBefore } from "../users/leavers.ts";
import { findUserById } from "../users/queries.ts";
import { anonymisePerson } from "./erase.ts";

/** Most people one clean-up run anonymises: each is a few dozen statements; the next run takes the rest. */
export const leaversPerRun = 100;

const dayMs = 24 * 60 * 60 * 1000;

/** People who left longer than `days` ago (model/users/leavers.ts says who has left). */
export function findLeavers(db: Db, now: Date, days: number, limit = leaversPerRun): Promise<string[]> {
  return peopleLeftBefore(db, new Date(now.getTime() - days * dayMs), limit);
}

export interface LeaversOutcome {
  people: number;
  erased: ErasedCounts;
}

/**
 * Anonymises the people who left more than `days` ago (ANONYMISE_LEFT_AFTER_DAYS; 0 never does), each with a
 * `person_erased` row (reason `privacy.left`) carrying what went. Runs inside the clean-up's locked transaction.
 */
export async function anonymiseLeavers(db: Db, now: Date, days: number): Promise<LeaversOutcome> {
  const erased = Object.fromEntries(erasedKinds.map((kind) => [kind, 0])) as ErasedCounts;
  if (days <= 0) return { people: 0, erased };
  const ids = await findLeavers(db, now, days);
  const events: AuditEvent[] = [];
  for (const id of ids) {
    const person = await findUserById(db, id);
    if (!person) continue;
    const counts = await anonymisePerson(db, person, now);
    for (const kind of erasedKinds) erased[kind] += counts[kind];
    events.push({
      type: "person_erased",
      result: "success",
      userId: id,
      reason: "privacy.left",
      occurredAt: now,
      details: { erased: counts, afterDays: days },
    });
  }
  await recordAuditEvents(db, events);
  return { people: ids.length, erased };
}
