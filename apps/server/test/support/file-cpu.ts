// Every server test file runs this (vitest.config.ts setupFiles): when `npm test` asks (FILE_CPU_OUTPUT), each file's
// CPU time in its worker process is appended to that file, one JSON line per test file, for scripts/test.ts to keep
// beside the files' wall times (issue 75: a file's wall time on a shared machine says little of what it costs).
// It counts the worker's own CPU (the file's code, the app it builds, PGlite); not PostgreSQL's or a program it starts.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";

const output = process.env.FILE_CPU_OUTPUT;
if (output) {
  let started: NodeJS.CpuUsage | undefined;
  beforeAll(() => {
    started = process.cpuUsage();
  });
  afterAll(() => {
    if (!started) return;
    const used = process.cpuUsage(started);
    const file = relative(process.cwd(), expect.getState().testPath ?? "unknown");
    appendFileSync(
      output,
      `${JSON.stringify({ file, cpuMilliseconds: Math.round((used.user + used.system) / 1000) })}\n`,
    );
  });
}
