import type { ImportJobStatus, ImportMode } from "@kpi-id/contracts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { DatabaseKind } from "../../platform/db/index.ts";
import type { Db } from "../../platform/db/schema.ts";
import {
  type ImportActor,
  ImportFailedPartway,
  type ImportLineResult,
  type ImportProgress,
  progressOf,
  runImport,
} from "./import.ts";

export interface ImportJobStart {
  text: string;
  fileName: string;
  mode: ImportMode;
  /** The console operator; the CLI runs as nobody in particular. */
  actor?: ImportActor;
}

/** What running a job needs: the server's or the import process' own database and hasher. */
export interface JobRunHost {
  db: Db;
  databaseKind: DatabaseKind;
  passwordHasher: PasswordHasher;
  log: { error(facts: object, message: string): void };
  clock: () => Date;
}

/** Whether a running job is to stop after its batch: an operator's cancel, or its process closing. */
export interface JobControl {
  cancel: boolean;
  closing: boolean;
}

// A running job writes its progress at least this often; one silent for longer has lost its instance.
export const heartbeatMs = 2_000;

const counts = (progress: ImportProgress) => ({
  total: progress.total,
  processed: progress.processed,
  created: progress.created,
  updated: progress.updated,
  unchanged: progress.unchanged,
  rejected: progress.rejected,
});

/**
 * Runs a job to its end on `host.db` and records how it ended. `control` is read after each batch: an
 * operator's cancel, or the process running it closing. Used in the server (the embedded database) and in
 * the import's own process (PostgreSQL).
 */
export async function runJob(
  host: JobRunHost,
  jobId: string,
  start: ImportJobStart,
  control: JobControl,
): Promise<void> {
  const local = control;
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
  }
}

async function finish(
  host: JobRunHost,
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
