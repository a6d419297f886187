import { z } from "zod";
import { grantAccess } from "../access/applications.ts";
import { findApplicationByIdOrName } from "../apps/queries.ts";
import type { PasswordHasher } from "../crypto/password.ts";
import type { Db } from "../db/schema.ts";
import { parseCsv } from "./csv.ts";
import { upsertUser } from "./service.ts";

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
  password: "password",
  apps: "apps",
} as const;
type Column = (typeof columnNames)[keyof typeof columnNames];

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
 * Imports people from CSV with a header row. Idempotent on username: a second
 * run updates instead of duplicating. One bad row is reported, never fatal.
 */
export async function importUsersCsv(db: Db, hasher: PasswordHasher, text: string): Promise<ImportReport> {
  const report: ImportReport = { created: 0, updated: 0, rejected: [] };
  const [header, ...rows] = parseCsv(text);
  if (!header) return report;
  const columns = header.fields.map(normaliseHeader);
  const missing = ["username", "fullName"].filter((name) => !columns.includes(name as Column));
  if (missing.length > 0) {
    report.rejected.push({ line: header.line, reason: `header: missing column(s) ${missing.join(", ")}` });
    return report;
  }

  for (const row of rows) {
    const record: Partial<Record<Column, string>> = {};
    columns.forEach((column, index) => {
      if (column) record[column] = row.fields[index];
    });
    try {
      if (row.fields.length !== header.fields.length) {
        throw new Error(`expected ${header.fields.length} fields, found ${row.fields.length}`);
      }
      const applications = await resolveApplications(db, record.apps);
      const password = record.password?.trim() ? record.password : undefined;
      const outcome = await db.transaction().execute(async (tx) => {
        const result = await upsertUser(
          tx,
          hasher,
          { ...record, username: record.username ?? "", fullName: record.fullName ?? "" },
          password,
        );
        for (const applicationId of applications) await grantAccess(tx, result.user.id, applicationId);
        return result.outcome;
      });
      report[outcome] += 1;
    } catch (error) {
      report.rejected.push({ line: row.line, username: record.username, reason: describe(error) });
    }
  }
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
