import { createHash } from "node:crypto";
import type { ImportJobStatus, ImportLine, ImportMode } from "@kpi-id/contracts";
import type { FastifyBaseLogger } from "fastify";
import { type Selectable, sql } from "kysely";
import type { PasswordHasher } from "../crypto/password.ts";
import type { DatabaseKind } from "../db/index.ts";
import type { ImportJobsTable } from "../db/people-schema.ts";
import type { Db } from "../db/schema.ts";
import { parseCsvLines } from "./csv.ts";
import {
  type ImportActor,
  ImportFailedPartway,
  type ImportLineResult,
  type ImportProgress,
  progressOf,
  runImport,
} from "./import.ts";

export type ImportJobRow = Selectable<ImportJobsTable>;

/** What a job needs from the app that runs it. */
export interface ImportJobHost {
  db: Db;
  databaseKind: DatabaseKind;
  passwordHasher: PasswordHasher;
  log: FastifyBaseLogger;
  clock: () => Date;
}

export interface ImportJobStart {
  text: string;
  fileName: string;
  mode: ImportMode;
  /** The console operator; the CLI runs as nobody in particular. */
  actor?: ImportActor;
}

// A running job writes its progress at least this often; one silent for longer has lost its instance.
const heartbeatMs = 2_000;
export const staleAfterMs = 60_000;

/** Jobs this process runs, and whether they are to stop: an operator's cancel, or this process closing. */
const runningHere = new Map<string, { db: Db; cancel: boolean; closing: boolean }>();

export const sha256Of = (text: string) => createHash("sha256").update(text).digest("hex");

/** A running job whose instance went quiet is interrupted: its lines so far are kept, the rest never ran. */
export function statusOf(job: ImportJobRow, now: Date): ImportJobStatus {
  if (job.status !== "running" || runningHere.has(job.id)) return job.status;
  return now.getTime() - new Date(job.heartbeat_at).getTime() > staleAfterMs ? "interrupted" : "running";
}

async function insertRunning(host: ImportJobHost, start: ImportJobStart, sha: string, total: number) {
  return (
    host.db
      .insertInto("import_jobs")
      .values({
        mode: start.mode,
        file_sha256: sha,
        file_name: start.fileName,
        started_by: start.actor?.actorId ?? null,
        total,
      })
      // A literal, not a parameter: PostgreSQL matches the partial index by the predicate's text, and
      // a generic plan (prepared statements after five runs) could not prove a parameter equal to it.
      .onConflict((conflict) =>
        conflict.columns(["file_sha256", "mode"]).where("status", "=", sql.lit("running")).doNothing(),
      )
      .returningAll()
      .executeTakeFirst()
  );
}

/**
 * Starts an import in the background and answers its row at once. The same file in the same mode
 * while a job of it runs joins that job instead (a browser re-sending the POST, a second click,
 * a second operator): the partial unique index decides, so two instances cannot both start one.
 */
export async function startImportJob(
  host: ImportJobHost,
  start: ImportJobStart,
): Promise<{ job: ImportJobRow; joined: boolean }> {
  const sha = sha256Of(start.text);
  const parsed = parseCsvLines(start.text);
  const total = Math.max(0, parsed.rows.length - 1) + parsed.errors.length;
  const runningOne = () =>
    host.db
      .selectFrom("import_jobs")
      .selectAll()
      .where("file_sha256", "=", sha)
      .where("mode", "=", start.mode)
      .where("status", "=", "running")
      .executeTakeFirst();
  let job = await insertRunning(host, start, sha, total);
  if (!job) {
    const running = await runningOne();
    if (running && statusOf(running, host.clock()) === "running") return { job: running, joined: true };
    if (running) {
      // Only while it is still silent: a heartbeat written meanwhile means its instance is alive.
      const cutoff = new Date(host.clock().getTime() - staleAfterMs);
      await host.db
        .updateTable("import_jobs")
        .set({ status: "interrupted" })
        .where("id", "=", running.id)
        .where("heartbeat_at", "<", cutoff)
        .execute();
    }
    job = await insertRunning(host, start, sha, total);
    if (!job) {
      // Another submit started or revived it at the same moment: join that one.
      const other = await runningOne();
      if (other) return { job: other, joined: true };
      throw new Error("an import of this file could not be started or joined");
    }
  }
  runningHere.set(job.id, { db: host.db, cancel: false, closing: false });
  void runJob(host, job.id, start);
  return { job, joined: false };
}

/**
 * Stops a job this process runs at once, before any query: on the embedded database a dry run holds
 * the only connection, and a cancel that first read the job would wait for the end it means to prevent.
 */
export function stopHere(jobId: string): void {
  const local = runningHere.get(jobId);
  if (local) local.cancel = true;
}

/** Asks a running job to stop after the batch it is in; the instance running it reads the flag. */
export async function requestCancel(db: Db, jobId: string): Promise<void> {
  stopHere(jobId);
  await db
    .updateTable("import_jobs")
    .set({ cancel_requested: true })
    .where("id", "=", jobId)
    .where("status", "=", "running")
    .execute();
}

const counts = (progress: ImportProgress) => ({
  total: progress.total,
  processed: progress.processed,
  created: progress.created,
  updated: progress.updated,
  unchanged: progress.unchanged,
  rejected: progress.rejected,
});

async function runJob(host: ImportJobHost, jobId: string, start: ImportJobStart): Promise<void> {
  const local = runningHere.get(jobId) ?? { db: host.db, cancel: false, closing: false };
  // A dry run is one transaction; on the embedded database it holds the only connection, so its
  // progress can be written only when it ends.
  const canWriteMidRun = start.mode === "apply" || host.databaseKind === "postgres";
  let lastWrite = 0;
  const onProgress = async (progress: ImportProgress) => {
    if (canWriteMidRun && (Date.now() - lastWrite >= heartbeatMs / 4 || local.cancel)) {
      lastWrite = Date.now();
      const row = await host.db
        .updateTable("import_jobs")
        .set({ ...counts(progress), heartbeat_at: host.clock() })
        .where("id", "=", jobId)
        .returning("cancel_requested")
        .executeTakeFirst();
      if (row?.cancel_requested) local.cancel = true;
    }
    return local.cancel ? ("stop" as const) : ("go on" as const);
  };
  try {
    const result = await runImport(host.db, host.passwordHasher, start.text, {
      dryRun: start.mode === "dry-run",
      ...(start.actor ? { actor: start.actor } : {}),
      onProgress,
    });
    const progress = progressOf(result.lines, result.lines.length);
    const status = !result.stopped ? "done" : local.closing ? "interrupted" : "cancelled";
    await finish(host, jobId, status, {
      ...counts(progress),
      // A finished job's total is its lines as parsed; a stopped one keeps the file's.
      total: result.stopped ? undefined : progress.total,
      lines: result.lines,
    });
  } catch (error) {
    host.log.error({ err: error, importJob: jobId }, "import job failed");
    // An apply's batches before the failure are committed: the report says which lines they were.
    const kept = error instanceof ImportFailedPartway ? error.lines : undefined;
    const outcome = kept ? { ...counts(progressOf(kept, kept.length)), total: undefined, lines: kept } : {};
    await finish(host, jobId, "failed", outcome).catch((finishError: unknown) =>
      host.log.error({ err: finishError, importJob: jobId }, "import job's failure could not be recorded"),
    );
  } finally {
    runningHere.delete(jobId);
  }
}

async function finish(
  host: ImportJobHost,
  jobId: string,
  status: Exclude<ImportJobStatus, "running">,
  outcome: Partial<ReturnType<typeof counts>> & { lines?: ImportLineResult[] },
): Promise<void> {
  const { lines, ...numbers } = outcome;
  const defined = Object.fromEntries(Object.entries(numbers).filter(([, value]) => value !== undefined));
  await host.db
    .updateTable("import_jobs")
    .set({
      ...defined,
      status,
      finished_at: host.clock(),
      heartbeat_at: host.clock(),
      ...(lines ? { lines: JSON.stringify(lines) } : {}),
    })
    .where("id", "=", jobId)
    .execute();
}

export function findImportJob(db: Db, jobId: string): Promise<ImportJobRow | undefined> {
  return db.selectFrom("import_jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
}

/** The newest job this operator started, for the page they come back to. */
export function latestImportJob(db: Db, operatorId: string): Promise<ImportJobRow | undefined> {
  return db
    .selectFrom("import_jobs")
    .selectAll()
    .where("started_by", "=", operatorId)
    .orderBy("started_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A job's lines as stored (JSON), those with a problem unless all are asked for. */
export function jobLines(job: ImportJobRow, which: "problems" | "all"): ImportLine[] {
  const stored = (typeof job.lines === "string" ? JSON.parse(job.lines) : job.lines) as ImportLine[] | null;
  return (stored ?? []).filter((line) => which === "all" || line.outcome === "rejected");
}

/** Waits for every job this process runs on `db` to end (tests, and closing), at most `timeoutMs`. */
export async function importJobsSettled(db: Db, timeoutMs = Number.POSITIVE_INFINITY): Promise<boolean> {
  const running = () => [...runningHere.values()].some((local) => local.db === db);
  const until = Date.now() + timeoutMs;
  while (running()) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

// A batch is 200 lines; one that has not ended in this time is stuck, and closing must not hang on it.
const shutdownWaitMs = 30_000;

/**
 * Stops this process' jobs after their current batch, before the database closes: they end as
 * interrupted, their lines so far kept whole, and running the file again completes them.
 */
export async function stopImportJobsForShutdown(db: Db): Promise<boolean> {
  for (const local of runningHere.values()) {
    if (local.db !== db) continue;
    local.cancel = true;
    local.closing = true;
  }
  // A job still running when the wait ends stops writing its heartbeat, so it shows interrupted.
  return importJobsSettled(db, shutdownWaitMs);
}

/** Jobs started before `before` (their reports name people), whatever became of them. */
export async function deleteOldImportJobs(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("import_jobs").where("started_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
