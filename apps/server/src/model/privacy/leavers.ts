import { type ErasedCounts, erasedKinds } from "@kpi-id/contracts";
import { sql } from "kysely";
import { type AuditEvent, recordAuditEvents } from "../../platform/audit/record.ts";
import type { RecordStatus } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { anonymisePerson } from "./erase.ts";

/** Most people one clean-up run anonymises: each is a few dozen statements; the next run takes the rest. */
export const leaversPerRun = 100;

const dayMs = 24 * 60 * 60 * 1000;

/** No record of the person in `table` is current, nor written or ending after the cutoff (ends_on is YYYY-MM-DD text). */
const noCurrentRecord = (table: "student_records" | "employee_positions", current: RecordStatus[], cutoff: Date) =>
  sql<boolean>`not exists (select 1 from ${sql.table(table)} as r where r.user_id = users.id and
    (r.status = any(${current}::text[]) or r.updated_at >= ${cutoff} or r.ends_on >= ${cutoff.toISOString().slice(0, 10)}))`;

/**
 * People who left longer than `days` ago: disabled (by SCIM, an import, the console or the CLI), with no
 * record that is current (studying, on academic leave, employed, on leave) nor any record or change of
 * theirs newer than the cutoff, and no console role. "Left" is dated by the last change to the person or
 * their records, so a source system that still writes about someone keeps them.
 */
export async function findLeavers(db: Db, now: Date, days: number, limit = leaversPerRun): Promise<string[]> {
  const cutoff = new Date(now.getTime() - days * dayMs);
  const rows = await db
    .selectFrom("users")
    .select("users.id")
    .where("users.status", "=", "disabled")
    .where("users.anonymised_at", "is", null)
    .where("users.updated_at", "<", cutoff)
    .where((eb) => eb.or([eb("users.scim_deleted_at", "is", null), eb("users.scim_deleted_at", "<", cutoff)]))
    .where(noCurrentRecord("student_records", ["studying", "academic_leave"], cutoff))
    .where(noCurrentRecord("employee_positions", ["active", "on_leave"], cutoff))
    .where(sql<boolean>`not exists (select 1 from operator_roles as o where o.user_id = users.id)`)
    .orderBy("users.updated_at")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
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
    const person = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
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
