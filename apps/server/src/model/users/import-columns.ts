import type { ImportReasonCode } from "@kpi-id/contracts";
import type { CsvRow } from "./csv.ts";
import { PersonRuleError } from "./rule-error.ts";
import type { PersonChanges, PrimaryRecordDetails } from "./service.ts";

// Header names as the `user create` flags spell them; other spellings are folded onto these.
const columnNames = {
  username: "username",
  fullname: "fullName",
  email: "email",
  taxid: "taxId",
  studentid: "studentId",
  employeeid: "employeeId",
  studentunit: "studentUnit",
  studentstatus: "studentStatus",
  employeeunit: "employeeUnit",
  employeestatus: "employeeStatus",
  password: "password",
  apps: "apps",
} as const;
export type Column = (typeof columnNames)[keyof typeof columnNames];

/**
 * The cell that clears a field on re-import. A blank cell leaves the field as it is, so a file
 * that lacks a value (a tax id the office does not hold) never erases one the person has.
 */
export const CLEAR_MARKER = "(clear)";
const clearableColumns = ["email", "taxId", "studentId", "employeeId"] as const satisfies Column[];

function normaliseHeader(header: string): Column | undefined {
  const key = header
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, "");
  return (columnNames as Record<string, Column>)[key];
}

export interface ResolvedColumns {
  list: (Column | undefined)[];
  /** Why the header is refused: a column missing, or one no rule knows (a typo would drop its data silently). */
  problem?: { reason: ImportReasonCode; detail: string };
  unknown: string[];
}

export function resolveColumns(header: CsvRow): ResolvedColumns {
  const list = header.fields.map(normaliseHeader);
  const unknown = header.fields.filter((_, index) => list[index] === undefined).map((name) => name.trim());
  const missing = ["username", "fullName"].filter((name) => !list.includes(name as Column));
  if (missing.length > 0) {
    return {
      list,
      unknown,
      problem: { reason: "missing_columns", detail: `header: missing column(s) ${missing.join(", ")}` },
    };
  }
  if (unknown.length > 0) {
    return {
      list,
      unknown,
      problem: { reason: "unknown_columns", detail: `header: unknown column(s) ${unknown.join(", ")}` },
    };
  }
  return { list, unknown };
}

/** A row's cells as changes: blank leaves the field, the clear marker clears it where clearing is allowed. */
export function personChanges(record: Partial<Record<Column, string>>): PersonChanges {
  const cell = (column: Column) => record[column] || undefined;
  for (const column of ["username", "fullName", "password", "apps"] as const) {
    if (cell(column) === CLEAR_MARKER) {
      throw new PersonRuleError("cannot_clear", column, `${column}: cannot be cleared by import`);
    }
  }
  const changes: PersonChanges = { username: cell("username") ?? "", fullName: cell("fullName") };
  for (const column of clearableColumns) {
    const value = cell(column);
    changes[column] = value === CLEAR_MARKER ? null : value;
  }
  return changes;
}

/** The primary records' unit (by code; the clear marker clears it) and status, where the file gives them. */
export function recordDetails(record: Partial<Record<Column, string>>): PrimaryRecordDetails {
  const unit = (column: "studentUnit" | "employeeUnit") => {
    const value = record[column] || undefined;
    return value === CLEAR_MARKER ? null : value;
  };
  const status = (column: "studentStatus" | "employeeStatus") => {
    const value = record[column] || undefined;
    if (value === CLEAR_MARKER) {
      throw new PersonRuleError("cannot_clear", column, `${column}: cannot be cleared by import`);
    }
    return value;
  };
  const details: PrimaryRecordDetails = {
    studentUnit: unit("studentUnit"),
    studentStatus: status("studentStatus"),
    employeeUnit: unit("employeeUnit"),
    employeeStatus: status("employeeStatus"),
  };
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
}
