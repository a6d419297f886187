import { type Expression, sql } from "kysely";
import type { RecordStatus } from "../../platform/db/people-schema.ts";

const currentStatuses: Record<"student_records" | "employee_positions", RecordStatus[]> = {
  student_records: ["studying", "academic_leave"],
  employee_positions: ["active", "on_leave"],
};

/**
 * True when no record of the person is current (studying, on academic leave, employed, on leave), nor written or
 * ending after the cutoff: a condition for another area's statement on its own people (retention's leavers), so
 * the records are asked in that one statement. `userId` is a column of that statement (ends_on is YYYY-MM-DD text).
 */
export function noRecordCurrentSince(userId: Expression<string>, cutoff: Date) {
  const day = cutoff.toISOString().slice(0, 10);
  const noneIn = (table: keyof typeof currentStatuses) =>
    sql<boolean>`not exists (select 1 from ${sql.table(table)} as r where r.user_id = ${userId} and
      (r.status = any(${currentStatuses[table]}::text[]) or r.updated_at >= ${cutoff} or r.ends_on >= ${day}))`;
  return sql<boolean>`(${noneIn("student_records")} and ${noneIn("employee_positions")})`;
}

/**
 * The ids of the person's primary student record and primary position (null without one), as two values for the
 * account's statement that copies them (model/users/primary-records.ts): one statement, each area naming its tables.
 */
export function primaryRecordIds(userId: string) {
  return {
    studentId: sql<string | null>`(select student_id from student_records where user_id = ${userId} and is_primary)`,
    employeeId: sql<
      string | null
    >`(select employee_id from employee_positions where user_id = ${userId} and is_primary)`,
  };
}
