import { z } from "zod";
import { grantAccess } from "../access/applications.ts";
import { findApplicationByIdOrName } from "../apps/queries.ts";
import { recordAuditEvent } from "../audit/record.ts";
import type { PasswordHasher } from "../crypto/password.ts";
import type { Db } from "../db/schema.ts";
import { parseCsvLines } from "./csv.ts";
import { type PersonChanges, type PrimaryRecordDetails, upsertUser } from "./service.ts";

export interface ImportReport {
  created: number;
  updated: number;
  rejected: { line: number; username?: string; reason: string }[];
}

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
type Column = (typeof columnNames)[keyof typeof columnNames];

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

function describe(error: unknown): string {
  if (error instanceof z.ZodError) {
    return error.issues.map((issue) => `${issue.path.join(".") || "row"}: ${issue.message}`).join("; ");
  }
  const code = (error as { code?: string }).code;
  if (code === "23505") {
    const constraint = (error as { constraint?: string }).constraint ?? (error as Error).message;
    return constraint.includes("tax_id") ? "taxId: already held by another person" : "duplicate value";
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Imports people from CSV with a header row. Idempotent on username: a second run updates the
 * fields it names instead of duplicating. One bad line is reported, never fatal.
 */
export async function importUsersCsv(db: Db, hasher: PasswordHasher, text: string): Promise<ImportReport> {
  const report: ImportReport = { created: 0, updated: 0, rejected: [] };
  const {
    rows: [header, ...rows],
    errors,
  } = parseCsvLines(text);
  report.rejected.push(...errors);
  if (!header) return sortedByLine(report);
  const columns = header.fields.map(normaliseHeader);
  const missing = ["username", "fullName"].filter((name) => !columns.includes(name as Column));
  if (missing.length > 0) {
    report.rejected.push({ line: header.line, reason: `header: missing column(s) ${missing.join(", ")}` });
    return sortedByLine(report);
  }

  for (const row of rows) {
    const record: Partial<Record<Column, string>> = {};
    columns.forEach((column, index) => {
      // A password is taken as written; other cells lose surrounding spaces.
      if (column) record[column] = column === "password" ? row.fields[index] : row.fields[index]?.trim();
    });
    try {
      if (row.fields.length !== header.fields.length) {
        throw new Error(`expected ${header.fields.length} fields, found ${row.fields.length}`);
      }
      const changes = personChanges(record);
      const applications = await resolveApplications(db, record.apps);
      const password = record.password?.trim() ? record.password : undefined;
      const outcome = await db.transaction().execute(async (tx) => {
        const result = await upsertUser(tx, hasher, changes, password, recordDetails(record), "csv");
        for (const applicationId of applications) {
          if (await grantAccess(tx, result.user.id, applicationId)) {
            await recordAuditEvent(tx, {
              type: "access_granted",
              result: "success",
              userId: result.user.id,
              applicationId,
              reason: "csv",
            });
          }
        }
        return result.outcome;
      });
      report[outcome] += 1;
    } catch (error) {
      report.rejected.push({ line: row.line, username: record.username, reason: describe(error) });
    }
  }
  return sortedByLine(report);
}

/** A row's cells as changes: blank leaves the field, the clear marker clears it where clearing is allowed. */
function personChanges(record: Partial<Record<Column, string>>): PersonChanges {
  const cell = (column: Column) => record[column] || undefined;
  for (const column of ["username", "fullName", "password", "apps"] as const) {
    if (cell(column) === CLEAR_MARKER) throw new Error(`${column}: cannot be cleared by import`);
  }
  const changes: PersonChanges = { username: cell("username") ?? "", fullName: cell("fullName") };
  for (const column of clearableColumns) {
    const value = cell(column);
    changes[column] = value === CLEAR_MARKER ? null : value;
  }
  return changes;
}

/** The primary records' unit (by code; the clear marker clears it) and status, where the file gives them. */
function recordDetails(record: Partial<Record<Column, string>>): PrimaryRecordDetails {
  const unit = (column: "studentUnit" | "employeeUnit") => {
    const value = record[column] || undefined;
    return value === CLEAR_MARKER ? null : value;
  };
  const status = (column: "studentStatus" | "employeeStatus") => {
    const value = record[column] || undefined;
    if (value === CLEAR_MARKER) throw new Error(`${column}: cannot be cleared by import`);
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

function sortedByLine(report: ImportReport): ImportReport {
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}

async function resolveApplications(db: Db, list: string | undefined): Promise<string[]> {
  const names = (list ?? "")
    .split(/[;|]/)
    .map((name) => name.trim())
    .filter(Boolean);
  const ids: string[] = [];
  for (const name of names) {
    const application = await findApplicationByIdOrName(db, name);
    if (!application) throw new Error(`apps: unknown application '${name}'`);
    ids.push(application.id);
  }
  return ids;
}
