import { text } from "@kpi-id/contracts";
import { sql } from "kysely";
import { z } from "zod";
import {
  type Affiliation,
  type EmployeePosition,
  employeeCategories,
  employmentTypes,
  positionStatuses,
  type StudentRecord,
  studentStatuses,
} from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";

/**
 * A person's student records and employee positions. Every writer (CSV import, CLI, SCIM) comes through
 * model/users/primary-records.ts, which then copies the primary records' ids to users.student_id and
 * users.employee_id (model/users owns the account's row; this module is a leaf of the model).
 */

const isoDate = text().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD");

export const studentRecordSchema = z.object({
  studentId: text().trim().min(1).max(64),
  unitId: z.uuid().nullish(),
  speciality: text().max(200).optional(),
  studyForm: text().max(64).optional(),
  studyYear: z.number().int().min(1).max(12).nullish(),
  status: z.enum(studentStatuses),
  startsOn: isoDate.nullish(),
  endsOn: isoDate.nullish(),
  primary: z.boolean().optional(),
});
export type StudentRecordInput = z.input<typeof studentRecordSchema>;

export const positionSchema = z.object({
  employeeId: text().trim().min(1).max(64),
  position: text().max(200).optional(),
  unitId: z.uuid().nullish(),
  employmentType: z.enum(employmentTypes).optional(),
  category: z.enum(employeeCategories).optional(),
  status: z.enum(positionStatuses),
  startsOn: isoDate.nullish(),
  endsOn: isoDate.nullish(),
  primary: z.boolean().optional(),
});
export type PositionInput = z.input<typeof positionSchema>;

export interface PersonRecords {
  students: StudentRecord[];
  positions: EmployeePosition[];
}

function studentColumns(input: z.output<typeof studentRecordSchema>, source: string) {
  return {
    student_id: input.studentId,
    unit_id: input.unitId ?? null,
    speciality: input.speciality ?? "",
    study_form: input.studyForm ?? "",
    study_year: input.studyYear ?? null,
    status: input.status,
    starts_on: input.startsOn ?? null,
    ends_on: input.endsOn ?? null,
    is_primary: input.primary ?? false,
    source,
  };
}

function positionColumns(input: z.output<typeof positionSchema>, source: string) {
  return {
    employee_id: input.employeeId,
    position: input.position ?? "",
    unit_id: input.unitId ?? null,
    employment_type: input.employmentType ?? "main",
    category: input.category ?? "staff",
    status: input.status,
    starts_on: input.startsOn ?? null,
    ends_on: input.endsOn ?? null,
    is_primary: input.primary ?? false,
    source,
  };
}

export async function recordsOf(db: Db, userId: string): Promise<PersonRecords> {
  const [students, positions] = await Promise.all([
    db.selectFrom("student_records").selectAll().where("user_id", "=", userId).orderBy("created_at").execute(),
    db.selectFrom("employee_positions").selectAll().where("user_id", "=", userId).orderBy("created_at").execute(),
  ]);
  return { students, positions };
}

/** Replaces the lists given (SCIM's view: the source system holds the whole truth); the primary follows. */
export async function replaceRecords(
  db: Db,
  userId: string,
  records: { students?: StudentRecordInput[]; positions?: PositionInput[] },
  source: string,
): Promise<void> {
  if (records.students) {
    const rows = records.students.map((input) => studentColumns(studentRecordSchema.parse(input), source));
    await db.deleteFrom("student_records").where("user_id", "=", userId).execute();
    if (rows.length > 0) {
      await db
        .insertInto("student_records")
        .values(rows.map((row) => ({ ...row, user_id: userId })))
        .execute();
    }
  }
  if (records.positions) {
    const rows = records.positions.map((input) => positionColumns(positionSchema.parse(input), source));
    await db.deleteFrom("employee_positions").where("user_id", "=", userId).execute();
    if (rows.length > 0) {
      await db
        .insertInto("employee_positions")
        .values(rows.map((row) => ({ ...row, user_id: userId })))
        .execute();
    }
  }
  await syncPrimaryRecords(db, userId);
}

export interface PrimaryChange {
  id: string | null;
  unitId?: string | null;
  status?: string;
}

/**
 * Sets the primary student record by its student id (CSV and CLI name one id per person): an existing
 * record with that id becomes primary, else the primary one takes the id, else a new one is made;
 * null removes the primary record. A unit or status given is set on it.
 */
export async function setPrimaryStudentRecord(db: Db, userId: string, change: PrimaryChange, source: string) {
  const status = change.status === undefined ? undefined : z.enum(studentStatuses).parse(change.status);
  const records = await db.selectFrom("student_records").selectAll().where("user_id", "=", userId).execute();
  const primary = records.find((record) => record.is_primary);
  if (change.id === null) {
    if (primary) await db.deleteFrom("student_records").where("id", "=", primary.id).execute();
  } else {
    const named = records.find((record) => record.student_id.toLowerCase() === change.id?.toLowerCase());
    const target = named ?? primary;
    const set = {
      ...(change.unitId === undefined ? {} : { unit_id: change.unitId }),
      ...(status === undefined ? {} : { status }),
    };
    if (target) {
      await db.updateTable("student_records").set({ is_primary: false }).where("user_id", "=", userId).execute();
      await db
        .updateTable("student_records")
        .set({ ...set, student_id: change.id, is_primary: true, source, updated_at: new Date() })
        .where("id", "=", target.id)
        .execute();
    } else {
      const row = studentRecordSchema.parse({ studentId: change.id, status: status ?? "studying", primary: true });
      await db
        .insertInto("student_records")
        .values({ ...studentColumns(row, source), ...set, user_id: userId })
        .execute();
    }
  }
  await syncPrimaryRecords(db, userId);
}

/** As setPrimaryStudentRecord, for employee positions. */
export async function setPrimaryPosition(db: Db, userId: string, change: PrimaryChange, source: string) {
  const status = change.status === undefined ? undefined : z.enum(positionStatuses).parse(change.status);
  const positions = await db.selectFrom("employee_positions").selectAll().where("user_id", "=", userId).execute();
  const primary = positions.find((position) => position.is_primary);
  if (change.id === null) {
    if (primary) await db.deleteFrom("employee_positions").where("id", "=", primary.id).execute();
  } else {
    const named = positions.find((position) => position.employee_id.toLowerCase() === change.id?.toLowerCase());
    const target = named ?? primary;
    const set = {
      ...(change.unitId === undefined ? {} : { unit_id: change.unitId }),
      ...(status === undefined ? {} : { status }),
    };
    if (target) {
      await db.updateTable("employee_positions").set({ is_primary: false }).where("user_id", "=", userId).execute();
      await db
        .updateTable("employee_positions")
        .set({ ...set, employee_id: change.id, is_primary: true, source, updated_at: new Date() })
        .where("id", "=", target.id)
        .execute();
    } else {
      const row = positionSchema.parse({ employeeId: change.id, status: status ?? "active", primary: true });
      await db
        .insertInto("employee_positions")
        .values({ ...positionColumns(row, source), ...set, user_id: userId })
        .execute();
    }
  }
  await syncPrimaryRecords(db, userId);
}

/**
 * A person made a moment ago gets their first student record and employee position, each primary:
 * what setPrimaryStudentRecord and setPrimaryPosition do for a person with none, without reading
 * first or syncing after (the person's row was inserted with these ids). An import makes thousands.
 */
export async function insertFirstRecords(
  db: Db,
  userId: string,
  records: { student?: PrimaryChange; position?: PrimaryChange },
  source: string,
): Promise<void> {
  const { student, position } = records;
  if (student?.id) {
    const status = student.status === undefined ? "studying" : z.enum(studentStatuses).parse(student.status);
    const row = studentRecordSchema.parse({ studentId: student.id, status, primary: true });
    await db
      .insertInto("student_records")
      .values({
        ...studentColumns(row, source),
        ...(student.unitId === undefined ? {} : { unit_id: student.unitId }),
        user_id: userId,
      })
      .execute();
  }
  if (position?.id) {
    const status = position.status === undefined ? "active" : z.enum(positionStatuses).parse(position.status);
    const row = positionSchema.parse({ employeeId: position.id, status, primary: true });
    await db
      .insertInto("employee_positions")
      .values({
        ...positionColumns(row, source),
        ...(position.unitId === undefined ? {} : { unit_id: position.unitId }),
        user_id: userId,
      })
      .execute();
  }
}

/**
 * Exactly one primary record of each kind while the person has any: the one marked, else the most current
 * (studying before on leave before graduated before dismissed; the latest start first). The person's
 * student_id and employee_id columns are then made to name it by model/users (copyPrimaryRecordIds), as the ticket
 * protocol always meant them to.
 */
export async function syncPrimaryRecords(db: Db, userId: string): Promise<void> {
  await sql`update student_records set is_primary = (id = (
      select id from student_records s where s.user_id = ${userId}
      order by s.is_primary desc,
        array_position(array['studying', 'academic_leave', 'graduated', 'dismissed'], s.status),
        s.starts_on desc nulls last, s.created_at desc
      limit 1))
    where user_id = ${userId}`.execute(db);
  await sql`update employee_positions set is_primary = (id = (
      select id from employee_positions p where p.user_id = ${userId}
      order by p.is_primary desc,
        array_position(array['active', 'on_leave', 'terminated'], p.status),
        p.starts_on desc nulls last, p.created_at desc
      limit 1))
    where user_id = ${userId}`.execute(db);
}

/** The person's eduPerson affiliations, each once, in eduPerson's order. */
export async function affiliationsOf(db: Db, userId: string): Promise<Affiliation[]> {
  const rows = await db
    .selectFrom("person_affiliations")
    .select("affiliation")
    .distinct()
    .where("user_id", "=", userId)
    .execute();
  return byAffiliationOrder(rows.map((row) => row.affiliation));
}

/** One order for a person's affiliations wherever they are released (the view's rows come in any order). */
export function byAffiliationOrder<T extends string>(affiliations: T[]): T[] {
  const order = ["student", "faculty", "staff", "employee", "member", "alum", "affiliate"];
  return [...affiliations].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** Every student record and employee position of the person (erasure); how many went. */
export async function deleteRecordsOf(db: Db, userId: string): Promise<number> {
  const students = await db.deleteFrom("student_records").where("user_id", "=", userId).executeTakeFirst();
  const positions = await db.deleteFrom("employee_positions").where("user_id", "=", userId).executeTakeFirst();
  return Number(students.numDeletedRows) + Number(positions.numDeletedRows);
}

/**
 * The units of every record the person has (a record without a unit gives null), students' and employees' alike:
 * what a unit role's reach is checked against (issue 79).
 */
export async function recordUnitIdsOf(db: Db, userId: string): Promise<(string | null)[]> {
  const rows = await db
    .selectFrom("student_records")
    .select("unit_id")
    .where("user_id", "=", userId)
    .unionAll(db.selectFrom("employee_positions").select("unit_id").where("user_id", "=", userId))
    .execute();
  return rows.map((row) => row.unit_id);
}
