import type { PersonRecord } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";

// The console's person screen (surfaces/admin/people.ts, through model/users/person-reads.ts): the records as an
// operator reads them, each with its unit's code and names.

/** The person's student records and employee positions with their units, primary first. */
export async function personRecordsOf(db: Db, userId: string): Promise<PersonRecord[]> {
  const [students, positions] = await Promise.all([
    db
      .selectFrom("student_records as r")
      .leftJoin("units as u", "u.id", "r.unit_id")
      .select(["r.student_id as id", "r.status", "r.is_primary", "r.speciality as title", "r.source"])
      .select(["u.code", "u.name_uk", "u.name_en"])
      .where("r.user_id", "=", userId)
      .orderBy("r.is_primary", "desc")
      .orderBy("r.student_id")
      .execute(),
    db
      .selectFrom("employee_positions as r")
      .leftJoin("units as u", "u.id", "r.unit_id")
      .select(["r.employee_id as id", "r.status", "r.is_primary", "r.position as title", "r.source"])
      .select(["u.code", "u.name_uk", "u.name_en"])
      .where("r.user_id", "=", userId)
      .orderBy("r.is_primary", "desc")
      .orderBy("r.employee_id")
      .execute(),
  ]);
  interface RecordRow {
    id: string;
    status: string;
    is_primary: boolean;
    title: string;
    source: string;
    code: string | null;
    name_uk: string | null;
    name_en: string | null;
  }
  const view = (kind: PersonRecord["kind"]) => (row: RecordRow) => ({
    kind,
    id: row.id,
    status: row.status,
    primary: row.is_primary,
    unit: row.code ? { code: row.code, nameUk: row.name_uk ?? row.code, nameEn: row.name_en ?? row.code } : null,
    title: row.title,
    source: row.source,
  });
  return [...students.map(view("student")), ...positions.map(view("employee"))];
}
