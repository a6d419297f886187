// The import's own process: a job on PostgreSQL runs here, not in the server, so the garbage of tens of
// thousands of statements never becomes the server's memory (its RSS rose 70-170 MiB and stayed: the
// allocator's high-water mark) and the server's event loop keeps answering while the file is read.
// The server forks this file per job and sends one `start`; `cancel` and `close` may follow. The process
// opens its own two connections, runs the job, records how it ended and exits.
import type { Argon2Parameters } from "../../platform/crypto/password.ts";
import { createPasswordHasher } from "../../platform/crypto/password.ts";
import { openDatabase } from "../../platform/db/index.ts";
import { type ImportJobStart, type JobControl, runJob } from "./import-job-runner.ts";

export interface ImportProcessStart {
  type: "start";
  jobId: string;
  start: ImportJobStart;
  databaseUrl: string;
  preparedStatements: boolean;
  argon2: Argon2Parameters;
}

export type ImportProcessMessage = ImportProcessStart | { type: "cancel" } | { type: "close" };

/** What the process tells the server: a failure to log in the server's own log. */
export interface ImportProcessReport {
  type: "log";
  message: string;
  error: string;
}

const control: JobControl = { cancel: false, closing: false };

function report(message: string, error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  // The server may be gone (it closed, or died): then there is no log to tell.
  if (process.connected) process.send?.({ type: "log", message, error: text } satisfies ImportProcessReport, () => {});
}

async function run(message: ImportProcessStart): Promise<void> {
  const database = await openDatabase({
    url: message.databaseUrl,
    poolMax: 2,
    preparedStatements: message.preparedStatements,
    dataDir: "",
  });
  try {
    await runJob(
      {
        db: database.db,
        databaseKind: database.kind,
        passwordHasher: createPasswordHasher(message.argon2),
        log: { error: (facts, text) => report(text, (facts as { err?: unknown }).err) },
        clock: () => new Date(),
      },
      message.jobId,
      message.start,
      control,
    );
  } finally {
    await database.close();
  }
}

process.on("message", (message: ImportProcessMessage) => {
  if (message.type === "cancel") control.cancel = true;
  if (message.type === "close") {
    control.cancel = true;
    control.closing = true;
  }
  if (message.type !== "start") return;
  run(message)
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      report("import process failed", error);
      process.exitCode = 1;
      process.disconnect?.();
    });
});

// The server went away: stop after the batch (the job shows interrupted, its lines so far whole).
process.on("disconnect", () => {
  control.cancel = true;
  control.closing = true;
});
