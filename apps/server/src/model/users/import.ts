import type { ImportReasonCode } from "@kpi-id/contracts";
import { sql } from "kysely";
import { type AuditEvent, recordAuditEvents } from "../../platform/audit/record.ts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { Db } from "../../platform/db/schema.ts";
import { type CsvRow, parseCsvLines } from "./csv.ts";
import { type LineProblem, problemsOf } from "./import-checks.ts";
import { type Column, resolveColumns } from "./import-columns.ts";
import { type ImportActor, type ImportRun, importRow, newImportRun, prefetchPeople } from "./import-row.ts";
import { PersonRuleError } from "./rule-error.ts";

export { CLEAR_MARKER } from "./import-columns.ts";
export type { ImportActor } from "./import-row.ts";

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
  /** Every problem found on a refused line (the first is reason, field and detail); empty otherwise. */
  problems: LineProblem[];
}

/** A refused line's result: its first problem up front, all of them listed. */
function refused(line: number, username: string | null, problems: LineProblem[]): ImportLineResult {
  const [first] = problems;
  return {
    line,
    username,
    outcome: "rejected",
    reason: first?.reason ?? "failed",
    field: first?.field ?? null,
    detail: problems.map((problem) => problem.detail).join("; ") || null,
    problems,
  };
}

/** The counts so far, after each batch of lines. */
export interface ImportProgress {
  total: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface ImportOptions {
  /** Everything is done as for real inside one transaction, then rolled back: the report is the apply's. */
  dryRun?: boolean;
  /** The console operator running the import: each person created or changed gets an audit row naming them. */
  actor?: ImportActor;
  /** Told the counts after each batch; answering "stop" ends the run there (a cancel). */
  onProgress?: (progress: ImportProgress) => Promise<"go on" | "stop">;
}

export interface ImportResult {
  lines: ImportLineResult[];
  /** Stopped by onProgress before the last line: an apply keeps the batches done, a dry run nothing. */
  stopped: boolean;
}

// Lines a transaction (apply) takes: a commit per line waited for the disk 10,000 times a file.
// Small enough that a batch's row locks are held for a fraction of a second.
const batchSize = 200;

class DryRunDone extends Error {}

/** An apply that failed part way: the batches before `lines` ended are committed, and the job reports them. */
export class ImportFailedPartway extends Error {
  readonly lines: ImportLineResult[];
  constructor(lines: ImportLineResult[], cause: unknown) {
    super("the import failed part way", { cause });
    this.lines = lines;
  }
}

// Between an apply's batches: the requests that queued for the embedded database's one connection
// go first, or an import would hold the whole service until its last line.
const letOthersIn = () => new Promise((resolve) => setImmediate(resolve));

export function progressOf(lines: ImportLineResult[], total: number): ImportProgress {
  const progress = { total, processed: lines.length, created: 0, updated: 0, unchanged: 0, rejected: 0 };
  for (const line of lines) progress[line.outcome] += 1;
  return progress;
}

interface ParsedFile {
  header: CsvRow;
  columns: (Column | undefined)[];
  rows: CsvRow[];
}

/** The file's rows, or the lines that refuse it whole (a header without the needed columns). */
function parse(text: string, results: ImportLineResult[]): ParsedFile | undefined {
  const {
    rows: [header, ...rows],
    errors,
  } = parseCsvLines(text);
  for (const error of errors) {
    results.push(refused(error.line, null, [{ reason: "csv_syntax", field: null, detail: error.reason }]));
  }
  if (!header) return undefined;
  const columns = resolveColumns(header);
  if (columns.problem) {
    results.push(refused(header.line, null, [{ field: null, ...columns.problem }]));
    return undefined;
  }
  return { header, columns: columns.list, rows };
}

function recordOf(file: ParsedFile, row: CsvRow): Partial<Record<Column, string>> {
  const record: Partial<Record<Column, string>> = {};
  file.columns.forEach((column, index) => {
    // A password is taken as written; other cells lose surrounding spaces.
    if (column) record[column] = column === "password" ? row.fields[index] : row.fields[index]?.trim();
  });
  return record;
}

/** One batch of lines on `db` (a transaction), each in a savepoint so a bad line leaves the others. */
async function importBatch(
  db: Db,
  run: ImportRun,
  file: ParsedFile,
  batch: CsvRow[],
  writeAudit: boolean,
): Promise<ImportLineResult[]> {
  const audit: AuditEvent[] = [];
  const records = batch.map((row) => recordOf(file, row));
  await prefetchPeople(
    db,
    run,
    records.map((record) => record.username ?? ""),
  );
  const results: ImportLineResult[] = [];
  for (const [index, row] of batch.entries()) {
    const record = records[index] ?? {};
    const username = record.username || null;
    try {
      if (row.fields.length !== file.header.fields.length) {
        const detail = `expected ${file.header.fields.length} fields, found ${row.fields.length}`;
        throw new PersonRuleError("field_count", null, detail);
      }
      await sql`savepoint import_line`.execute(db);
      let done: Awaited<ReturnType<typeof importRow>>;
      try {
        done = await importRow(db, run, record, row.line);
        await sql`release savepoint import_line`.execute(db);
      } catch (error) {
        await sql`rollback to savepoint import_line`.execute(db);
        throw error;
      }
      run.people.set(String(username).toLowerCase(), { id: done.userId, snapshot: done.after });
      audit.push(...done.audit);
      results.push({
        line: row.line,
        username,
        outcome: done.outcome,
        reason: null,
        field: null,
        detail: null,
        problems: [],
      });
    } catch (error) {
      results.push(refused(row.line, username, problemsOf(error)));
    }
  }
  if (writeAudit) await recordAuditEvents(db, audit);
  return results;
}

/**
 * Imports people from CSV with a header row, in batches. Idempotent on username: a second run
 * updates the fields it names instead of duplicating, and a line that changes nothing is
 * "unchanged". A bad line is reported with its reason and never stops the others. An apply commits
 * a batch at a time, each line whole, so a run that stops half way leaves whole lines and running
 * the file again completes it.
 */
export async function runImport(
  db: Db,
  hasher: PasswordHasher,
  text: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const results: ImportLineResult[] = [];
  const file = parse(text, results);
  if (!file) return { lines: sortedByLine(results), stopped: false };
  const total = file.rows.length + results.length;
  const run = newImportRun(hasher, options.actor);
  const report = () => options.onProgress?.(progressOf(results, total)) ?? Promise.resolve("go on" as const);
  const batches = Array.from({ length: Math.ceil(file.rows.length / batchSize) }, (_, index) =>
    file.rows.slice(index * batchSize, (index + 1) * batchSize),
  );
  let stopped = false;

  if (!options.dryRun) {
    try {
      for (const batch of batches) {
        results.push(...(await db.transaction().execute((tx) => importBatch(tx, run, file, batch, true))));
        await letOthersIn();
        if ((await report()) === "stop" && batch !== batches.at(-1)) {
          stopped = true;
          break;
        }
      }
    } catch (error) {
      throw new ImportFailedPartway(sortedByLine(results), error);
    }
    return { lines: sortedByLine(results), stopped };
  }
  await db
    .transaction()
    .execute(async (tx) => {
      for (const batch of batches) {
        results.push(...(await importBatch(tx, run, file, batch, false)));
        if ((await report()) === "stop" && batch !== batches.at(-1)) {
          stopped = true;
          break;
        }
      }
      throw new DryRunDone();
    })
    .catch((error: unknown) => {
      if (!(error instanceof DryRunDone)) throw error;
    });
  return { lines: sortedByLine(results), stopped };
}

/** The CLI's import: counts and the rejected lines in the rules' own words. */
export async function importUsersCsv(
  db: Db,
  hasher: PasswordHasher,
  text: string,
  options: Pick<ImportOptions, "onProgress" | "dryRun"> = {},
): Promise<ImportReport> {
  const { lines } = await runImport(db, hasher, text, options);
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
