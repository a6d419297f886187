import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Argon2Parameters } from "../../platform/crypto/password.ts";
import type { Db } from "../../platform/db/schema.ts";
import { productionNodeFlags } from "../../platform/production-process.ts";
import type { ImportProcessMessage, ImportProcessReport, ImportProcessStart } from "./import-job-process.ts";
import { type ImportJobStart, type JobControl, type JobRunHost, runJob } from "./import-job-runner.ts";

/** Where a job runs: in the server (the embedded database has one connection, in this process) or its own process. */
export interface ImportJobHost extends JobRunHost {
  /** PostgreSQL's address for the import's own process; without it the job runs in the server. */
  processDatabase?: { url: string; preparedStatements: boolean };
  argon2: Argon2Parameters;
}

/** A job this process started: stopped through `stop`, done when `ended` settles. */
export interface LaunchedJob {
  db: Db;
  stop(closing: boolean): void;
  ended: Promise<void>;
}

const processEntry = fileURLToPath(new URL("./import-job-process.ts", import.meta.url));

/** Runs a job in this process, as the embedded database requires. */
function runInServer(host: ImportJobHost, jobId: string, start: ImportJobStart): LaunchedJob {
  const control: JobControl = { cancel: false, closing: false };
  return {
    db: host.db,
    stop(closing) {
      control.cancel = true;
      if (closing) control.closing = true;
    },
    ended: runJob(host, jobId, start, control),
  };
}

/**
 * Runs a job in its own process. A process that exits before recording the end (killed, out of memory)
 * leaves the job failed here, not running for a minute until it counts as interrupted.
 */
function runInOwnProcess(
  host: ImportJobHost,
  database: NonNullable<ImportJobHost["processDatabase"]>,
  jobId: string,
  start: ImportJobStart,
): LaunchedJob {
  // The service's own young-generation flag; not the parent's other flags (a test runner's, an inspector's).
  const child: ChildProcess = fork(processEntry, [], { execArgv: [...productionNodeFlags], stdio: "inherit" });
  // A process that is exiting closes its channel: a message it can no longer take is of no use to it.
  const send = (message: ImportProcessMessage) => {
    if (child.connected) child.send(message, () => {});
  };
  child.on("message", (message: ImportProcessReport) => {
    if (message.type === "log") host.log.error({ importJob: jobId, err: message.error }, message.message);
  });
  const ended = new Promise<void>((resolve) => {
    const markFailed = () =>
      host.db
        .updateTable("import_jobs")
        .set({ status: "failed", finished_at: host.clock(), heartbeat_at: host.clock() })
        .where("id", "=", jobId)
        .where("status", "=", "running")
        .execute()
        .catch((error: unknown) => host.log.error({ err: error, importJob: jobId }, "import job's failure lost"))
        .finally(resolve);
    child.once("exit", (code, signal) => {
      if (code === 0) return resolve();
      host.log.error({ importJob: jobId, code, signal }, "import process ended without recording the job's end");
      void markFailed();
    });
    // Node could not start the process (no exit follows) or lost its channel (the exit still follows).
    child.on("error", (error) => {
      host.log.error({ err: error, importJob: jobId }, "import process error");
      if (child.pid === undefined) void markFailed();
    });
  });
  const message: ImportProcessStart = {
    type: "start",
    jobId,
    start,
    databaseUrl: database.url,
    preparedStatements: database.preparedStatements,
    argon2: host.argon2,
  };
  send(message);
  return { db: host.db, stop: (closing) => send({ type: closing ? "close" : "cancel" }), ended };
}

export function launchImportJob(host: ImportJobHost, jobId: string, start: ImportJobStart): LaunchedJob {
  return host.processDatabase
    ? runInOwnProcess(host, host.processDatabase, jobId, start)
    : runInServer(host, jobId, start);
}
