import { type Expression, sql } from "kysely";
import type { Affiliation } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { byAffiliationOrder } from "./records.ts";

/**
 * What applications learn of a person's campus roles: the ticket's keys (flat strings, as the protocol has
 * always been) and OpenID Connect's `kpi` scope (the records themselves, and eduPerson affiliations).
 */

export interface UnitView {
  code: string;
  name_uk: string;
  name_en: string;
}

export interface RecordView {
  kind: "student" | "employee";
  id: string;
  status: string;
  primary: boolean;
  unit: UnitView | null;
  /** The nearest faculty or institute at or above the unit: what public integrations ask for. */
  faculty: UnitView | null;
  speciality?: string;
  study_form?: string;
  study_year?: number | null;
  position?: string;
  category?: string;
  employment_type?: string;
  starts_on: string | null;
  ends_on: string | null;
}

interface RecordRow {
  kind: "student" | "employee";
  id: string;
  status: string;
  primary: boolean;
  speciality: string | null;
  study_form: string | null;
  study_year: number | null;
  position: string | null;
  category: string | null;
  employment_type: string | null;
  starts_on: string | null;
  ends_on: string | null;
  unit_code: string | null;
  unit_name_uk: string | null;
  unit_name_en: string | null;
  faculty_code: string | null;
  faculty_name_uk: string | null;
  faculty_name_en: string | null;
}

export interface PersonRoles {
  affiliations: Affiliation[];
  records: RecordView[];
}

const unitView = (code: string | null, nameUk: string | null, nameEn: string | null): UnitView | null =>
  code ? { code, name_uk: nameUk ?? "", name_en: nameEn ?? "" } : null;

/** The two JSON columns the roles come in (see personRoles). */
export interface RoleColumns {
  affiliations?: Affiliation[] | null;
  records?: RecordRow[] | null;
}

/**
 * The person's records with their units and faculties, the primary ones first, and their affiliations, as two
 * columns for one statement: personRoles reads them alone, and a statement that reads the person anyway (an
 * OpenID Connect token's account, a ticket's use) reads them beside. Both come as JSON, so an empty list is a list
 * and dates arrive as the strings RecordRow says. `userId` is the id, or a column of that statement holding it.
 */
export function personRolesColumns(userId: string | Expression<string>) {
  return {
    affiliations: sql<Affiliation[]>`(
      select coalesce(json_agg(distinct affiliation), '[]'::json) from person_affiliations where user_id = ${userId}
    )`,
    records: sql<RecordRow[]>`(
      with records as (
        select 'student' as kind, student_id as id, status, is_primary as primary, speciality, study_form, study_year,
          null as position, null as category, null as employment_type, starts_on, ends_on, unit_id, created_at
        from student_records where user_id = ${userId}
        union all
        select 'employee', employee_id, status, is_primary, null, null, null,
          position, category, employment_type, starts_on, ends_on, unit_id, created_at
        from employee_positions where user_id = ${userId}
      ),
      viewed as (
        select records.*, unit.code as unit_code, unit.name_uk as unit_name_uk, unit.name_en as unit_name_en,
          faculty.code as faculty_code, faculty.name_uk as faculty_name_uk, faculty.name_en as faculty_name_en
        from records
        left join units unit on unit.id = records.unit_id
        left join lateral (
          select f.code, f.name_uk, f.name_en from units f
          where f.id = any(unit.ancestry) and f.kind in ('faculty', 'institute')
          order by array_position(unit.ancestry, f.id) desc limit 1
        ) faculty on true
      )
      select coalesce(json_agg(row_to_json(viewed) order by kind desc, "primary" desc, created_at), '[]'::json)
      from viewed
    )`,
  };
}

/** Whether the person holds one of these affiliations through a current record (who may register applications). */
export async function holdsAffiliation(db: Db, userId: string, affiliations: readonly Affiliation[]): Promise<boolean> {
  if (affiliations.length === 0) return false;
  const row = await db
    .selectFrom("person_affiliations")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("affiliation", "in", [...affiliations])
    .executeTakeFirst();
  return row !== undefined;
}

/** The ids of the people holding this affiliation, as a subquery for another area's statement. */
export function peopleWithAffiliation(db: Db, affiliation: Affiliation) {
  return db.selectFrom("person_affiliations").select("user_id").where("affiliation", "=", affiliation);
}

/** The roles from the columns personRolesColumns reads. */
export function rolesFromColumns(columns: RoleColumns | undefined): PersonRoles {
  const records = (columns?.records ?? []).map((row): RecordView => {
    const common = {
      kind: row.kind,
      id: row.id,
      status: row.status,
      primary: row.primary,
      unit: unitView(row.unit_code, row.unit_name_uk, row.unit_name_en),
      faculty: unitView(row.faculty_code, row.faculty_name_uk, row.faculty_name_en),
      starts_on: row.starts_on,
      ends_on: row.ends_on,
    };
    return row.kind === "student"
      ? { ...common, speciality: row.speciality ?? "", study_form: row.study_form ?? "", study_year: row.study_year }
      : {
          ...common,
          position: row.position ?? "",
          category: row.category ?? "",
          employment_type: row.employment_type ?? "",
        };
  });
  return { affiliations: byAffiliationOrder(columns?.affiliations ?? []), records };
}

/** The person's roles, in one statement (a ticket with the roles, a token whose account did not read them). */
export async function personRoles(db: Db, userId: string): Promise<PersonRoles> {
  const { affiliations, records } = personRolesColumns(userId);
  const { rows } = await sql<RoleColumns>`select ${affiliations} as affiliations, ${records} as records`.execute(db);
  return rolesFromColumns(rows[0]);
}

/** The ticket's keys for the roles: flat strings, empty when the person has no such record. */
export function rolesTicketData(roles: PersonRoles) {
  const primary = (kind: RecordView["kind"]) => roles.records.find((record) => record.kind === kind && record.primary);
  const student = primary("student");
  const employee = primary("employee");
  return {
    AFFILIATIONS: roles.affiliations.join(","),
    STUDENT_STATUS: student?.status ?? "",
    STUDENT_UNIT: student?.unit?.code ?? "",
    STUDENT_FACULTY: student?.faculty?.code ?? "",
    EMPLOYEE_STATUS: employee?.status ?? "",
    EMPLOYEE_UNIT: employee?.unit?.code ?? "",
    EMPLOYEE_FACULTY: employee?.faculty?.code ?? "",
  };
}

/**
 * OpenID Connect's `kpi` scope additions. `scope` is the university's domain (SAML_SCOPE), the same one
 * SAML releases scoped affiliations in, so a person is "student@<scope>" whichever protocol asks.
 */
export function rolesClaims(roles: PersonRoles, scope: string) {
  return {
    eduperson_affiliation: roles.affiliations,
    eduperson_scoped_affiliation: roles.affiliations.map((affiliation) => `${affiliation}@${scope}`),
    kpi_records: roles.records,
  };
}
