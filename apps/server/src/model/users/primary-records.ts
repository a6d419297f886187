// A person's records as every writer changes them (CSV import, CLI, SCIM): model/people writes the records and picks
// the primary ones, then the account's student_id and employee_id name them, in the caller's transaction.
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { primaryRecordIds } from "../people/current-records.ts";
import {
  type PositionInput,
  type PrimaryChange,
  replaceRecords,
  type StudentRecordInput,
  setPrimaryPosition,
  setPrimaryStudentRecord,
} from "../people/records.ts";

/** The account's student_id and employee_id become the primary record's and position's ids (null without one). */
export async function copyPrimaryRecordIds(db: Db, userId: string): Promise<void> {
  const primary = primaryRecordIds(userId);
  await sql`update users set student_id = ${primary.studentId}, employee_id = ${primary.employeeId}, updated_at = now()
    where id = ${userId}`.execute(db);
}

/** Replaces the lists given (SCIM's view: the source system holds the whole truth); the primary ids follow. */
export async function replacePersonRecords(
  db: Db,
  userId: string,
  records: { students?: StudentRecordInput[]; positions?: PositionInput[] },
  source: string,
): Promise<void> {
  await replaceRecords(db, userId, records, source);
  await copyPrimaryRecordIds(db, userId);
}

/** Sets the primary student record (model/people's setPrimaryStudentRecord); the account's ids follow. */
export async function setPersonPrimaryStudentRecord(db: Db, userId: string, change: PrimaryChange, source: string) {
  await setPrimaryStudentRecord(db, userId, change, source);
  await copyPrimaryRecordIds(db, userId);
}

/** Sets the primary employee position (model/people's setPrimaryPosition); the account's ids follow. */
export async function setPersonPrimaryPosition(db: Db, userId: string, change: PrimaryChange, source: string) {
  await setPrimaryPosition(db, userId, change, source);
  await copyPrimaryRecordIds(db, userId);
}
