import type { ImportJobStatus } from "@kpi-id/contracts";
import type { ColumnType, Generated, Selectable } from "kysely";

/** The people model's tables (migration 0210): units, student records, employee positions, access rules. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableDate = ColumnType<string | null, string | null | undefined, string | null>;

export const unitKinds = ["university", "faculty", "institute", "department", "group", "office"] as const;
export type UnitKind = (typeof unitKinds)[number];
export const studentStatuses = ["studying", "academic_leave", "graduated", "dismissed"] as const;
export type StudentStatus = (typeof studentStatuses)[number];
export const positionStatuses = ["active", "on_leave", "terminated"] as const;
export type PositionStatus = (typeof positionStatuses)[number];
export const employmentTypes = ["main", "secondary", "contract"] as const;
export type EmploymentType = (typeof employmentTypes)[number];
export const employeeCategories = ["faculty", "staff"] as const;
export type EmployeeCategory = (typeof employeeCategories)[number];
/** eduPerson affiliations (eduPerson 2020-01): the ones a campus record gives, and `affiliate` for a guest. */
export const affiliations = ["student", "employee", "faculty", "staff", "member", "alum", "affiliate"] as const;
export type Affiliation = (typeof affiliations)[number];
export type RecordStatus = StudentStatus | PositionStatus;
export const recordStatuses: readonly RecordStatus[] = [...studentStatuses, ...positionStatuses];

export interface UnitsTable {
  id: Generated<string>;
  code: string;
  kind: UnitKind;
  name_uk: string;
  name_en: ColumnType<string, string | undefined, string>;
  parent_id: ColumnType<string | null, string | null | undefined, string | null>;
  ancestry: ColumnType<string[], string[] | undefined, string[]>;
  /** Whether a unit admin's review approval is final here and below (migration 0770); else central IT decides. */
  reviews_final: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface RecordColumns {
  id: Generated<string>;
  user_id: string;
  unit_id: ColumnType<string | null, string | null | undefined, string | null>;
  source: string;
  starts_on: NullableDate;
  ends_on: NullableDate;
  is_primary: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StudentRecordsTable extends RecordColumns {
  student_id: string;
  speciality: ColumnType<string, string | undefined, string>;
  study_form: ColumnType<string, string | undefined, string>;
  study_year: ColumnType<number | null, number | null | undefined, number | null>;
  status: StudentStatus;
}

export interface EmployeePositionsTable extends RecordColumns {
  employee_id: string;
  position: ColumnType<string, string | undefined, string>;
  employment_type: ColumnType<EmploymentType, EmploymentType | undefined, EmploymentType>;
  category: ColumnType<EmployeeCategory, EmployeeCategory | undefined, EmployeeCategory>;
  status: PositionStatus;
}

/** A view: one row per record and the affiliation it gives. */
export interface PersonAffiliationsView {
  user_id: string;
  unit_id: string | null;
  status: RecordStatus;
  affiliation: Affiliation;
}

export interface AccessRulesTable {
  id: Generated<string>;
  application_id: string;
  affiliation: Affiliation | null;
  unit_id: string | null;
  include_subunits: ColumnType<boolean, boolean | undefined, boolean>;
  status: RecordStatus | null;
  created_at: Timestamp;
}

export interface AccessExclusionsTable {
  user_id: string;
  application_id: string;
  created_at: Timestamp;
}

export interface PeopleTables {
  units: UnitsTable;
  student_records: StudentRecordsTable;
  employee_positions: EmployeePositionsTable;
  person_affiliations: PersonAffiliationsView;
  access_rules: AccessRulesTable;
  access_exclusions: AccessExclusionsTable;
  scim_tokens: ScimTokensTable;
  import_jobs: ImportJobsTable;
  retired_usernames: RetiredUsernamesTable;
  scim_pushed_groups: ScimPushedGroupsTable;
  scim_group_members: ScimGroupMembersTable;
}

/** Groups created over SCIM without the unit extension (migration 0530): their members are the ones pushed. */
export interface ScimPushedGroupsTable {
  unit_id: string;
  pushed_by: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface ScimGroupMembersTable {
  unit_id: string;
  user_id: string;
  added_at: ColumnType<Date, Date | undefined, never>;
}

/** Usernames of anonymised people (migration 0460), as SHA-256 of the lower-cased name: never given again. */
export interface RetiredUsernamesTable {
  username_sha256: Uint8Array;
  retired_at: Timestamp;
}

/** CSV imports running or run in the background (migration 0419); the file itself is not kept. */
export interface ImportJobsTable {
  id: Generated<string>;
  mode: "dry-run" | "apply";
  file_sha256: string;
  file_name: string;
  started_by: string | null;
  status: ColumnType<ImportJobStatus, "running" | undefined, ImportJobStatus>;
  cancel_requested: Generated<boolean>;
  total: Generated<number>;
  processed: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  unchanged: Generated<number>;
  rejected: Generated<number>;
  /** JSON text of the lines' outcomes, once the job has ended. */
  lines: ColumnType<unknown, string | null | undefined, string | null>;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type Unit = Selectable<UnitsTable>;
export type StudentRecord = Selectable<StudentRecordsTable>;
export type EmployeePosition = Selectable<EmployeePositionsTable>;
export type AccessRule = Selectable<AccessRulesTable>;

/** SCIM provisioning clients' bearer tokens (migration 0211); only the SHA-256 of a token is kept. */
export interface ScimTokensTable {
  id: Generated<string>;
  name: string;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
export type ScimToken = Selectable<ScimTokensTable>;
