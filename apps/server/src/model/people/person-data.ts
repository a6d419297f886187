import type { PersonalData } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { PersonDataArea } from "../../platform/db/person-data.ts";
import type { Db } from "../../platform/db/schema.ts";
import { deleteRecordsOf } from "./records.ts";

/** Student records and positions. */
export const personData: PersonDataArea = {
  area: "people",
  erase: async (db, person) => ({ records: await deleteRecordsOf(db, person.id) }),
  exportOf: async (db, person) => ({ records: await recordsForExport(db, person.id) }),
  labels: { records: { uk: "Навчання та посади", en: "Studies and positions" } },
};

interface ExportedRecordRow {
  kind: "student" | "employee";
  id: string;
  unit: string | null;
  status: string;
  title: string;
  starts_on: string | null;
  ends_on: string | null;
  is_primary: boolean;
  source: string;
}

/** The person's student records and positions with their units' names, as "download my data" shows them. */
export async function recordsForExport(db: Db, userId: string): Promise<PersonalData["records"]> {
  // One statement; dates are stored as ISO day text.
  const { rows } = await sql<ExportedRecordRow>`
    select 'student' as kind, r.student_id as id, r.speciality as title, u.name_uk as unit,
           r.status, r.starts_on, r.ends_on, r.is_primary, r.source
    from student_records r left join units u on u.id = r.unit_id where r.user_id = ${userId}
    union all
    select 'employee', r.employee_id, r.position, u.name_uk, r.status, r.starts_on, r.ends_on, r.is_primary, r.source
    from employee_positions r left join units u on u.id = r.unit_id where r.user_id = ${userId}`.execute(db);
  return rows.map((row) => ({
    kind: row.kind,
    id: row.id,
    unit: row.unit,
    status: row.status,
    title: row.title,
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    primary: row.is_primary,
    source: row.source,
  }));
}
