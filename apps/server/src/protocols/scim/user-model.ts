import { byAffiliationOrder } from "../../model/people/records.ts";
import { recordsOfPeople } from "../../model/people/records-of-people.ts";
import type { EmployeePosition, StudentRecord } from "../../platform/db/people-schema.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { kpiUserSchemaId } from "./constants.ts";

/** A person as SCIM shows them (RFC 7643 §4.1 and the KPI extension), before scimmy coerces it. */
export interface ScimUserView {
  id: string;
  userName: string;
  externalId?: string;
  name: { formatted: string; givenName?: string; familyName?: string; middleName?: string };
  displayName: string;
  emails?: { value: string; type: string; primary: boolean }[];
  active: boolean;
  meta: { created: string; lastModified: string; version: string };
  [kpiUserSchemaId]: {
    studentRecords?: Record<string, string | number | boolean>[];
    employeePositions?: Record<string, string | number | boolean>[];
    affiliations?: string[];
  };
  /** What user-fields.ts keeps as the client sent it (title, phoneNumbers, the enterprise extension, ...). */
  [kept: string]: unknown;
}

/** The weak ETag of a person: their last change, to the microsecond PostgreSQL keeps (ms here). */
export function userVersion(user: Pick<User, "updated_at">): string {
  return `W/"${user.updated_at.getTime().toString(36)}"`;
}

function defined<T extends Record<string, unknown>>(value: T): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && item !== undefined && item !== "") out[key] = item as string | number | boolean;
  }
  return out;
}

function studentView(record: StudentRecord, codes: Map<string, string>) {
  return defined({
    studentId: record.student_id,
    unit: record.unit_id ? codes.get(record.unit_id) : undefined,
    speciality: record.speciality,
    studyForm: record.study_form,
    studyYear: record.study_year,
    status: record.status,
    startsOn: record.starts_on,
    endsOn: record.ends_on,
    primary: record.is_primary,
  });
}

function positionView(position: EmployeePosition, codes: Map<string, string>) {
  return defined({
    employeeId: position.employee_id,
    position: position.position,
    unit: position.unit_id ? codes.get(position.unit_id) : undefined,
    employmentType: position.employment_type,
    category: position.category,
    status: position.status,
    startsOn: position.starts_on,
    endsOn: position.ends_on,
    primary: position.is_primary,
  });
}

/** The SCIM view of these people, their records read in three statements whatever their number. */
export async function userViews(db: Db, users: User[]): Promise<ScimUserView[]> {
  if (users.length === 0) return [];
  const ids = users.map((user) => user.id);
  const { students, positions, affiliations, units } = await recordsOfPeople(db, ids);
  const codes = new Map(units.map((unit) => [unit.id, unit.code]));
  return users.map((user) => {
    const own = {
      studentRecords: students.filter((row) => row.user_id === user.id).map((row) => studentView(row, codes)),
      employeePositions: positions.filter((row) => row.user_id === user.id).map((row) => positionView(row, codes)),
      affiliations: byAffiliationOrder(
        affiliations.filter((row) => row.user_id === user.id).map((row) => row.affiliation),
      ),
    };
    const { name: keptName, ...kept } = user.scim_attributes ?? {};
    return {
      ...kept,
      id: user.id,
      userName: user.username,
      ...(user.scim_external_id ? { externalId: user.scim_external_id } : {}),
      name: { ...(typeof keptName === "object" ? keptName : {}), formatted: user.full_name },
      displayName: user.full_name,
      ...(user.email ? { emails: [{ value: user.email, type: "work", primary: true }] } : {}),
      active: user.status === "active",
      meta: {
        created: user.created_at.toISOString(),
        lastModified: user.updated_at.toISOString(),
        version: userVersion(user),
      },
      [kpiUserSchemaId]: {
        ...(own.studentRecords.length ? { studentRecords: own.studentRecords } : {}),
        ...(own.employeePositions.length ? { employeePositions: own.employeePositions } : {}),
        ...(own.affiliations.length ? { affiliations: own.affiliations } : {}),
      },
    };
  });
}
