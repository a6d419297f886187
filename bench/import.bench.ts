import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { ImportJobView } from "@kpi-id/contracts";
import { addOperator, createApplication } from "@kpi-id/server/testing";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { addPopulation } from "./lib/population.ts";
import { startBenchApp } from "./lib/server-app.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "Console import of 10,000 rows at 100,000 people (POST /api/admin/import/jobs)";

const population = 100_000;
const rows = 10_000;
const mib = (bytes: number) => bytes / 1024 / 1024;

/**
 * A university office's file: half the rows people already on file (a third of those with a new
 * e-mail, the rest as they are), half new people with a student id and the library, and one row
 * in a hundred with an e-mail no rule accepts.
 */
function officeFile(): string {
  const lines = ["username,full-name,email,student-id,apps"];
  for (let n = 1; n <= rows; n++) {
    if (n % 100 === 0) lines.push(`new.${n},Нова Особа${n},not-an-email,,`);
    else if (n % 2 === 0) lines.push(`new.${n},Нова Особа${n},new.${n}@kpi.ua,НВ-${n},library`);
    else {
      const existing = n * 7;
      const email = n % 3 === 0 ? `changed.${existing}@kpi.ua` : "";
      lines.push(`u${existing},,${email},,`);
    }
  }
  return lines.join("\r\n");
}

/** The RSS of the import's own process (PostgreSQL runs a job there), 0 when there is none. */
function importProcessRss(): number {
  try {
    const pid = execFileSync("pgrep", ["-P", String(process.pid), "-f", "import-job-process"], { encoding: "utf8" });
    const status = readFileSync(`/proc/${pid.trim().split("\n")[0]}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

async function runJob(app: FastifyInstance, cookie: string, mode: "dry-run" | "apply", file: string) {
  const started = performance.now();
  const response = await app.inject({
    method: "POST",
    url: "/api/admin/import/jobs",
    headers: { cookie, origin: app.config.publicUrl, "content-type": "application/json" },
    payload: { file: Buffer.from(file).toString("base64"), fileName: "office.csv", mode },
  });
  if (response.statusCode !== 202) throw new Error(`import answered ${response.statusCode} ${response.body}`);
  const { id } = response.json<ImportJobView>();
  let peakRss = process.memoryUsage().rss;
  let peakProcessRss = 0;
  for (;;) {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    peakProcessRss = Math.max(peakProcessRss, importProcessRss());
    const job = (await app.inject({ url: `/api/admin/import/jobs/${id}`, headers: { cookie } })).json<ImportJobView>();
    if (job.status !== "running") {
      if (job.status !== "done" || job.processed !== rows) throw new Error(`import ended ${JSON.stringify(job)}`);
      return { seconds: (performance.now() - started) / 1000, peakRss, peakProcessRss, job };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One statement per row through the lower(username) index: the least an import of these rows can do. */
async function lookups(app: FastifyInstance): Promise<number> {
  const started = performance.now();
  for (let n = 1; n <= rows; n++) {
    await sql`select id from users where lower(username) = ${`u${n * 7}`}`.execute(app.db);
  }
  return (performance.now() - started) / 1000;
}

export async function run(): Promise<Comparison[]> {
  const bench = await startBenchApp();
  try {
    const { app } = bench;
    await addPopulation(app, population);
    await createApplication(app.db, { name: "library", title: "Бібліотека", callbackUrl: "https://library.kpi.ua/cb" });
    const { cookie } = await addOperator(app, ["admin"]);
    const file = officeFile();
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    const dry = await runJob(app, cookie, "dry-run", file);
    const apply = await runJob(app, cookie, "apply", file);
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssAfter = process.memoryUsage().rss;
    const heapAfter = process.memoryUsage().heapUsed;
    const baselineSeconds = await lookups(app);
    const method = `${bench.databaseKind}, ${population.toLocaleString("en")} people, in-process; RSS ${mib(rssBefore).toFixed(0)} MiB before, peak ${mib(Math.max(dry.peakRss, apply.peakRss)).toFixed(0)}, ${mib(rssAfter).toFixed(0)} after; JS heap ${mib(heapBefore).toFixed(0)} → ${mib(heapAfter).toFixed(0)} MiB (run with --expose-gc for a collected figure); the import's own process peaked at ${mib(Math.max(dry.peakProcessRss, apply.peakProcessRss)).toFixed(0)} MiB and exited`;
    const baseline = {
      label: `${rows.toLocaleString("en")} lookups by username, a statement each`,
      value: rows / baselineSeconds,
      unit: "rows/s",
    };
    return [
      {
        subject: {
          label: `dry run of ${rows.toLocaleString("en")} rows (${dry.seconds.toFixed(1)} s)`,
          value: rows / dry.seconds,
          unit: "rows/s",
        },
        baseline,
        method,
      },
      {
        subject: {
          label: `apply of ${rows.toLocaleString("en")} rows (${apply.seconds.toFixed(1)} s)`,
          value: rows / apply.seconds,
          unit: "rows/s",
        },
        baseline,
        method: `${method}; created ${apply.job.created}, updated ${apply.job.updated}, unchanged ${apply.job.unchanged}, rejected ${apply.job.rejected}`,
      },
    ];
  } finally {
    await bench.close();
  }
}
