import { createHash } from "node:crypto";
import type { ImportJobStatus, ImportLine } from "@kpi-id/contracts";
import { type Selectable, sql } from "kysely";
import type { ImportJobsTable } from "../../platform/db/people-schema.ts";
import type { Db } from "../../platform/db/schema.ts";
import { parseCsvLines } from "./csv.ts";
import { type ImportJobHost, type LaunchedJob, launchImportJob } from "./import-job-launch.ts";
import type { ImportJobStart } from "./import-job-runner.ts";

export type { ImportJobHost } from "./import-job-launch.ts";
export type { ImportJobStart } from "./import-job-runner.ts";

export type ImportJobRow = Selectable<ImportJobsTable>;

// A running job writes its progress every half second or so; one silent this long has lost its instance.
export const staleAfterMs = 60_000;

/** Jobs this process started (in itself or in their own process), until they end. */
const runningHere = new Map<string, LaunchedJob>();

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
  const launched = launchImportJob(host, job.id, start);
  runningHere.set(job.id, launched);
  const jobId = job.id;
  void launched.ended.finally(() => runningHere.delete(jobId));
  return { job, joined: false };
}

/**
 * Stops a job this process runs at once, before any query: on the embedded database a dry run holds
 * the only connection, and a cancel that first read the job would wait for the end it means to prevent.
 */
export function stopHere(jobId: string): void {
  runningHere.get(jobId)?.stop(false);
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
  const running = () => [...runningHere.values()].some((launched) => launched.db === db);
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
  for (const launched of runningHere.values()) {
    if (launched.db === db) launched.stop(true);
  }
  // A job still running when the wait ends stops writing its heartbeat, so it shows interrupted.
  return importJobsSettled(db, shutdownWaitMs);
}

/** Jobs started before `before` (their reports name people), whatever became of them. */
export async function deleteOldImportJobs(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("import_jobs").where("started_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
