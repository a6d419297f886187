import type { ImportReasonCode } from "@kpi-id/contracts";
import { sql } from "kysely";
import { z } from "zod";
import { grantAccess } from "../access/applications.ts";
import { findApplicationByIdOrName } from "../apps/queries.ts";
import { recordAuditEvent } from "../audit/record.ts";
import type { PasswordHasher } from "../crypto/password.ts";
import type { Db } from "../db/schema.ts";
import { parseCsvLines } from "./csv.ts";
import { type Column, personChanges, recordDetails, resolveColumns } from "./import-columns.ts";
import { PersonRuleError } from "./rule-error.ts";
import { upsertUser } from "./service.ts";
import { personSnapshot } from "./snapshot.ts";

export { CLEAR_MARKER } from "./import-columns.ts";

/** What `user import` prints (and `--json` answers). */
export interface ImportReport {
  created: number;
  updated: number;
  unchanged: number;
  rejected: { line: number; username?: string; reason: string }[];
}

/** One line's fate: the person it made or changed, or why it was refused. */
export interface ImportLineResult {
  line: number;
  username: string | null;
  outcome: "created" | "updated" | "unchanged" | "rejected";
  reason: ImportReasonCode | null;
  field: string | null;
  /** The rule's own words: what the CLI prints. */
  detail: string | null;
  userId?: string;
}

export interface ImportOptions {
  /** Everything is done as for real inside one transaction, then rolled back: the report is the apply's. */
  dryRun?: boolean;
  /** The console operator running the import, named on the audit rows it writes. */
  actorId?: string;
}

class DryRunDone extends Error {}

function rejection(error: unknown): Pick<ImportLineResult, "reason" | "field" | "detail"> {
  if (error instanceof PersonRuleError) return { reason: error.reason, field: error.field, detail: error.message };
  if (error instanceof z.ZodError) {
    const detail = error.issues.map((issue) => `${issue.path.join(".") || "row"}: ${issue.message}`).join("; ");
    const field = error.issues[0]?.path[0];
    return { reason: "invalid_value", field: typeof field === "string" ? field : null, detail };
  }
  if ((error as { code?: string }).code === "23505") {
    const constraint = (error as { constraint?: string }).constraint ?? (error as Error).message;
    return constraint.includes("tax_id")
      ? { reason: "tax_id_taken", field: "taxId", detail: "taxId: already held by another person" }
      : { reason: "duplicate", field: null, detail: "duplicate value" };
  }
  return { reason: "failed", field: null, detail: error instanceof Error ? error.message : String(error) };
}

async function resolveApplications(db: Db, list: string | undefined): Promise<string[]> {
  const names = (list ?? "")
    .split(/[;|]/)
    .map((name) => name.trim())
    .filter(Boolean);
  const ids: string[] = [];
  for (const name of names) {
    const application = await findApplicationByIdOrName(db, name);
    if (!application) {
      throw new PersonRuleError("unknown_application", "apps", `apps: unknown application '${name}'`);
    }
    ids.push(application.id);
  }
  return ids;
}

/** One row, inside its own transaction (apply) or savepoint (dry run): all of it or none of it. */
async function importRow(
  db: Db,
  hasher: PasswordHasher,
  record: Partial<Record<Column, string>>,
  actorId: string | undefined,
) {
  const changes = personChanges(record);
  const applications = await resolveApplications(db, record.apps);
  const password = record.password?.trim() ? record.password : undefined;
  const existing = await db
    .selectFrom("users")
    .select("id")
    .where("username", "=", changes.username)
    .executeTakeFirst();
  const before = existing ? await personSnapshot(db, existing.id) : undefined;
  const result = await upsertUser(db, hasher, changes, password, recordDetails(record), "csv");
  for (const applicationId of applications) {
    // Audited only when access changed, so a repeated import of the same line adds no row.
    if (await grantAccess(db, result.user.id, applicationId)) {
      await recordAuditEvent(db, {
        type: "access_granted",
        result: "success",
        userId: result.user.id,
        applicationId,
        reason: "csv",
        ...(actorId ? { actorId } : {}),
      });
    }
  }
  const same = before !== undefined && password === undefined && before === (await personSnapshot(db, result.user.id));
  return { outcome: same ? ("unchanged" as const) : result.outcome, userId: result.user.id };
}

/**
 * Imports people from CSV with a header row, line by line. Idempotent on username: a second run
 * updates the fields it names instead of duplicating, and a line that changes nothing is
 * "unchanged". A bad line is reported with its reason and never stops the others. Each line is its
 * own transaction, so a run that stops half way leaves whole lines, and running the file again
 * completes it.
 */
export async function runImport(
  db: Db,
  hasher: PasswordHasher,
  text: string,
  options: ImportOptions = {},
): Promise<ImportLineResult[]> {
  const results: ImportLineResult[] = [];
  const {
    rows: [header, ...rows],
    errors,
  } = parseCsvLines(text);
  for (const error of errors) {
    results.push({
      line: error.line,
      username: null,
      outcome: "rejected",
      reason: "csv_syntax",
      field: null,
      detail: error.reason,
    });
  }
  if (!header) return sortedByLine(results);
  const columns = resolveColumns(header);
  if (columns.problem) {
    results.push({ line: header.line, username: null, outcome: "rejected", field: null, ...columns.problem });
    return sortedByLine(results);
  }

  const eachRow = async (inLine: <T>(work: (db: Db) => Promise<T>) => Promise<T>) => {
    for (const row of rows) {
      const record: Partial<Record<Column, string>> = {};
      columns.list.forEach((column, index) => {
        // A password is taken as written; other cells lose surrounding spaces.
        if (column) record[column] = column === "password" ? row.fields[index] : row.fields[index]?.trim();
      });
      const username = record.username || null;
      try {
        if (row.fields.length !== header.fields.length) {
          const detail = `expected ${header.fields.length} fields, found ${row.fields.length}`;
          throw new PersonRuleError("field_count", null, detail);
        }
        const done = await inLine((lineDb) => importRow(lineDb, hasher, record, options.actorId));
        results.push({ line: row.line, username, reason: null, field: null, detail: null, ...done });
      } catch (error) {
        results.push({ line: row.line, username, outcome: "rejected", ...rejection(error) });
      }
    }
  };

  if (!options.dryRun) {
    await eachRow((work) => db.transaction().execute(work));
    return sortedByLine(results);
  }
  await db
    .transaction()
    .execute(async (tx) => {
      await eachRow(async (work) => {
        await sql`savepoint import_line`.execute(tx);
        try {
          const done = await work(tx);
          await sql`release savepoint import_line`.execute(tx);
          return done;
        } catch (error) {
          await sql`rollback to savepoint import_line`.execute(tx);
          throw error;
        }
      });
      throw new DryRunDone();
    })
    .catch((error: unknown) => {
      if (!(error instanceof DryRunDone)) throw error;
    });
  return sortedByLine(results);
}

/** The CLI's import: counts and the rejected lines in the rules' own words. */
export async function importUsersCsv(db: Db, hasher: PasswordHasher, text: string): Promise<ImportReport> {
  const lines = await runImport(db, hasher, text);
  const count = (outcome: ImportLineResult["outcome"]) => lines.filter((line) => line.outcome === outcome).length;
  return {
    created: count("created"),
    updated: count("updated"),
    unchanged: count("unchanged"),
    rejected: lines
      .filter((line) => line.outcome === "rejected")
      .map((line) => ({
        line: line.line,
        ...(line.username ? { username: line.username } : {}),
        reason: line.detail ?? line.reason ?? "",
      })),
  };
}

function sortedByLine(results: ImportLineResult[]): ImportLineResult[] {
  return results.sort((a, b) => a.line - b.line);
}
