// `npm test`: every suite, one after another, then one closing line
// "tests: N passed, N failed" that counts them all.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { staleBundleReason } from "@kpi-id/server/server-module";
import type { FileDuration } from "./file-durations-reporter.ts";
import {
  describeCost,
  type FileTimes,
  keepFileTimes,
  printCostliestFiles,
  readLastRunFileTimes,
  type SuiteCost,
  startCostMeter,
} from "./test-costs.ts";
import {
  type PlaywrightSuiteReport,
  playwrightFailures,
  unhandledErrors,
  type VitestReport,
  vitestFailures,
} from "./test-reports.ts";
import { testTempDir } from "./test-tmpdir.ts";

// The browser tests and the cluster run the server as production does, from the build `npm test` has just made
// (bin/server-module.js): a build that is not current would leave them testing the source instead, unseen.
const staleBuild = staleBundleReason();
if (staleBuild !== undefined) {
  console.error(`npm test: the server's build is not current after npm run build: ${staleBuild}`);
  process.exit(1);
}

const reportDir = ".tmp/test-reports";
// The last run's file times stay, beside this run's, for the summary to compare (scripts/test-costs.ts).
const lastRunFileTimes = readLastRunFileTimes(reportDir);
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  exitCode: number;
  /** Why the suite failed when no single test did (a file that would not load, an unhandled error). */
  note?: string;
  /** Each failed test's file, name and first line of its error: CI shows only the output's tail, where these are. */
  failures?: string[];
  cost?: SuiteCost;
}

interface Finished {
  exitCode: number;
  /** What the command printed, also passed through as it came. */
  stdout: string;
  stderr: string;
  cost: SuiteCost;
}

/**
 * Runs a command, its output passed through as it comes unless `quiet` (then only kept, for the caller to print),
 * and measures its wall time and the CPU time of every process it started, and of PostgreSQL unless `quiet`
 * (scripts/test-costs.ts): the one quiet command, the check, runs beside the cluster suite and uses no database, so
 * PostgreSQL's time then is the cluster's.
 */
function run(command: string, args: string[], env: Record<string, string> = {}, quiet = false): Promise<Finished> {
  return new Promise((done) => {
    const stdin = quiet ? "ignore" : "inherit";
    const meter = startCostMeter(command, args, !quiet);
    const child = spawn(meter.command, meter.args, {
      stdio: [stdin, "pipe", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdio[3]?.on("data", (chunk: Buffer) => meter.timesOutput.push(chunk));
    const cost = meter.cost;
    child.stdout?.on("data", (chunk: Buffer) => {
      out.push(chunk);
      if (!quiet) process.stdout.write(chunk);
    });
    // Vitest prints its unhandled errors here.
    child.stderr?.on("data", (chunk: Buffer) => {
      err.push(chunk);
      if (!quiet) process.stderr.write(chunk);
    });
    // A command that cannot start is a failed suite.
    child.on("error", (error) => done({ exitCode: 1, stdout: "", stderr: String(error), cost: cost() }));
    child.on("close", (code) =>
      done({
        exitCode: code ?? 1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        cost: cost(),
      }),
    );
  });
}

const vitestDurations = join(reportDir, "vitest-durations.json");
/** The server's test files' CPU time in their workers, a JSON line each (apps/server/test/support/file-cpu.ts). */
const vitestFileCpu = join(reportDir, "vitest-file-cpu.jsonl");

function readVitestDurations(): FileDuration[] {
  return existsSync(vitestDurations) ? (JSON.parse(readFileSync(vitestDurations, "utf8")) as FileDuration[]) : [];
}

async function vitestSuite(): Promise<SuiteResult> {
  const output = join(reportDir, "vitest.json");
  // Its temporary files in memory where Linux has a RAM disk (scripts/test-tmpdir.ts).
  const tempDir = testTempDir();
  const { exitCode, stdout, stderr, cost } = await run(
    "vitest",
    [
      "run",
      "--reporter=default",
      "--reporter=json",
      "--reporter=./scripts/file-durations-reporter.ts",
      `--outputFile.json=${output}`,
    ],
    { FILE_DURATIONS_OUTPUT: resolve(vitestDurations), FILE_CPU_OUTPUT: resolve(vitestFileCpu), ...tempDir?.env },
  );
  // A failed run's files stay for a look until the next run (a test may have left what explains it).
  if (exitCode === 0) tempDir?.remove();
  else if (tempDir) console.log(`vitest's temporary files are kept in ${tempDir.env.TMPDIR} until the next npm test`);
  if (!existsSync(output)) return { name: "unit and integration (vitest)", passed: 0, failed: 1, exitCode, cost };
  const report = JSON.parse(readFileSync(output, "utf8")) as VitestReport;
  // A file that fails to load or errors outside a test has no failed test but fails the run: name it.
  const outsideTests = new Map(readVitestDurations().map((file) => [resolve(file.file), file.errorsOutsideTests]));
  const brokenFiles = report.testResults
    .filter((file) => file.status === "failed" && file.assertionResults.every((test) => test.status !== "failed"))
    .map((file) => {
      const errors = outsideTests.get(resolve(file.name)) ?? [file.message.split("\n")[0] ?? ""];
      return `${file.name}: ${errors.join("; ")}`;
    });
  const unhandled = [...unhandledErrors(stderr), ...unhandledErrors(stdout)];
  const notes = [
    ...(brokenFiles.length > 0 ? [`files failed outside a test:\n    ${brokenFiles.join("\n    ")}`] : []),
    ...(unhandled.length > 0 ? [`unhandled errors:\n    ${unhandled.join("\n    ")}`] : []),
  ];
  return {
    name: "unit and integration (vitest)",
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    exitCode,
    cost,
    note: notes.length > 0 ? notes.join("\n    ") : undefined,
    failures: vitestFailures(report),
  };
}

interface PlaywrightStats {
  stats: { expected: number; unexpected: number; flaky: number };
  errors?: { message?: string }[];
  suites?: PlaywrightSuiteReport[];
}

const playwrightReport = join(reportDir, "playwright.json");

/** Each spec file's time: its tests' durations added up (a file runs whole in one worker). */
function playwrightFileDurations(
  suites: PlaywrightSuiteReport[],
  into = new Map<string, number>(),
): Map<string, number> {
  for (const suite of suites) {
    const file = join("e2e", "specs", suite.file);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) into.set(file, (into.get(file) ?? 0) + result.duration);
      }
    }
    playwrightFileDurations(suite.suites ?? [], into);
  }
  return into;
}

/**
 * The ten slowest test files of every suite that reported its files' times; every file's time is kept in the report
 * folder beside the previous run's, and the files that grew most since then are printed too.
 */
function printSlowestFiles(): void {
  const files = readVitestDurations();
  if (existsSync(playwrightReport)) {
    const { suites } = JSON.parse(readFileSync(playwrightReport, "utf8")) as PlaywrightStats;
    for (const [file, milliseconds] of playwrightFileDurations(suites ?? [])) files.push({ file, milliseconds });
  }
  if (files.length === 0) return;
  const times: FileTimes = Object.fromEntries(files.map(({ file, milliseconds }) => [file, Math.round(milliseconds)]));
  keepFileTimes(reportDir, times, lastRunFileTimes);
  console.log("\nSlowest test files");
  for (const { file, milliseconds } of files.sort((a, b) => b.milliseconds - a.milliseconds).slice(0, 10)) {
    console.log(`  ${(milliseconds / 1000).toFixed(1).padStart(6)} s  ${file}`);
  }
}

async function playwrightSuite(): Promise<SuiteResult | undefined> {
  if (!existsSync("e2e/playwright.config.ts")) return undefined;
  const output = playwrightReport;
  const { exitCode, cost } = await run(
    "playwright",
    ["test", "-c", "e2e/playwright.config.ts", "--reporter=list,json"],
    {
      // Absolute: Playwright resolves a relative name against the config's folder (e2e/).
      PLAYWRIGHT_JSON_OUTPUT_NAME: resolve(output),
    },
  );
  if (!existsSync(output)) return { name: "browser (playwright)", passed: 0, failed: 1, exitCode, cost };
  const { stats, errors, suites } = JSON.parse(readFileSync(output, "utf8")) as PlaywrightStats;
  // Errors outside a test (global set-up or teardown, the web server) fail the run with no failed test.
  const outside = (errors ?? []).map((error) => error.message?.split("\n")[0] ?? "unknown error");
  return {
    name: "browser (playwright)",
    passed: stats.expected + stats.flaky,
    failed: stats.unexpected,
    exitCode,
    cost,
    note: outside.length > 0 ? `errors outside a test:\n    ${outside.join("\n    ")}` : undefined,
    failures: playwrightFailures(suites ?? []),
  };
}

// Two instances behind nginx on PostgreSQL (cluster/run.ts); it needs both, so without them it is left out.
async function clusterSuite(): Promise<SuiteResult | undefined> {
  const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].some((path) => existsSync(path));
  if (!process.env.DATABASE_URL || !nginx) {
    console.log("cluster suite skipped: it needs DATABASE_URL and nginx (.ci/run provides both)");
    return undefined;
  }
  const { exitCode, stdout, cost } = await run(process.execPath, ["cluster/run.ts"]);
  const counts = /cluster: (\d+) passed, (\d+) failed/.exec(stdout);
  return {
    name: "cluster (two instances behind nginx, faults)",
    passed: Number(counts?.[1] ?? 0),
    failed: Number(counts?.[2] ?? 1),
    exitCode,
    cost,
  };
}

/**
 * `npm test -- --with-check` (.ci/run): `npm run check` (types, lint, imports) runs beside the cluster suite instead
 * of before everything (issue 63). The cluster's time is set by its scenarios' waits, restarts and fixed spans of
 * load, which take whatever CPU is left, so the check's half minute of two cores mostly hides there; it reads the
 * source tree only, and the cluster writes outside it (a temporary folder, git's worktree list). Its output is kept
 * and printed whole once the cluster's is done.
 */
const withCheck = process.argv.includes("--with-check");

// One after another, each suite with the machine to itself, but for the check beside the cluster.
const suites: SuiteResult[] = [];
for (const suite of [await vitestSuite(), await playwrightSuite()]) if (suite) suites.push(suite);
const [cluster, checked] = await Promise.all([
  clusterSuite(),
  withCheck ? run("npm", ["run", "-s", "check"], {}, true) : undefined,
]);
if (cluster) suites.push(cluster);
if (checked) {
  console.log("\nnpm run check (beside the cluster suite)");
  process.stdout.write(checked.stdout);
  process.stderr.write(checked.stderr);
}

printSlowestFiles();
printCostliestFiles(vitestFileCpu, reportDir);
console.log("\nSummary");
for (const suite of suites) {
  const cost = suite.cost ? ` (${describeCost(suite.cost)})` : "";
  console.log(`  ${suite.name}: ${suite.passed} passed, ${suite.failed} failed${cost}`);
  if (suite.exitCode !== 0 && suite.failed === 0) {
    console.log(`    exited with code ${suite.exitCode} though no test failed${suite.note ? `; ${suite.note}` : ""}`);
  }
  for (const failure of (suite.failures ?? []).slice(0, 20)) console.log(`    failed: ${failure}`);
}
if (checked) {
  const outcome = checked.exitCode === 0 ? "passed" : `FAILED (exit code ${checked.exitCode})`;
  console.log(`  npm run check: ${outcome} (${describeCost(checked.cost)})`);
}
// Every suite's busy CPU-seconds, the check's too: what the run cost the machine (issue 75), beside its wall time.
const costs = [...suites.map((suite) => suite.cost), checked?.cost].filter((cost) => cost !== undefined);
const runCpu = costs.reduce((sum, cost) => sum + (cost.cpuSeconds ?? 0), 0);
console.log(`  all suites: ${Math.round(runCpu)} busy CPU-s in ${Math.round(performance.now() / 1000)} s wall`);
const passed = suites.reduce((sum, suite) => sum + suite.passed, 0);
// A suite that crashed before reporting counts as a failure even with no failed test; a failed check counts as one.
const failed =
  suites.reduce((sum, suite) => sum + suite.failed + (suite.exitCode !== 0 && suite.failed === 0 ? 1 : 0), 0) +
  (checked && checked.exitCode !== 0 ? 1 : 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
