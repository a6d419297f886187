// npm run bench [-- NAME[,NAME…]]: runs every bench/*.bench.ts (or those whose file name contains one of the NAMEs,
// so `-- oidc,memory,rush` measures the rush and the GOAL lines it must not cost in one run) and prints each figure
// beside the baseline measured in the same run. Each file runs in a process of its own: a bench that loads a
// service leaves heap, JIT state and pools behind, and the next file's figures would depend on which ran before
// (refresh-1 read 0.58 after the memory bench in one process, 0.64 in its own).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { type MachineryPiece, machineryPieces, switchMachinery } from "@kpi-id/server/testing";
import { goalLine } from "./lib/goal-line.ts";
import type { BenchModule, Comparison, Measurement } from "./lib/types.ts";

const directory = new URL("./", import.meta.url);
const filters = (process.argv[2] ?? "").split(",").filter(Boolean);
// Set by this script for the child that runs one file; the parent only starts children and adds up their status.
const ownProcessFlag = "--one-file";
const runsOneFile = process.argv[3] === ownProcessFlag;

function format(measurement: Measurement): string {
  const value = measurement.value >= 100 ? measurement.value.toFixed(0) : measurement.value.toFixed(1);
  const latency =
    measurement.p50Ms === undefined
      ? ""
      : `   p50 ${measurement.p50Ms.toFixed(2)} ms, p99 ${(measurement.p99Ms ?? 0).toFixed(2)} ms`;
  return `${measurement.label.padEnd(62)} ${value.padStart(9)} ${measurement.unit}${latency}`;
}

function print(comparison: Comparison): void {
  console.log(`  ${format(comparison.subject)}`);
  console.log(`  ${format(comparison.baseline)}`);
  const ratio = comparison.subject.value / comparison.baseline.value;
  console.log(`  ${"ratio".padEnd(62)} ${ratio.toFixed(2).padStart(9)} ×   (${comparison.method})`);
  const goal = goalLine(comparison);
  if (goal) console.log(goal);
  console.log("");
}

const files = runsOneFile
  ? filters
  : readdirSync(directory)
      .filter(
        (file) => file.endsWith(".bench.ts") && (filters.length === 0 || filters.some((name) => file.includes(name))),
      )
      .sort();
if (files.length === 0) {
  console.error(`no benchmark matches '${filters.join(",")}'`);
  process.exit(2);
}
if (files.length > 1) {
  let failed = 0;
  for (const file of files) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), file, ownProcessFlag],
      { stdio: "inherit" },
    );
    if (child.status !== 0) {
      console.error(`bench/${file} ended with ${child.status ?? child.signal}`);
      failed += 1;
    }
  }
  process.exit(failed === 0 ? 0 : 1);
}

// KPI_BENCH_OFF=listen-caches,precompiled runs the in-process benches with those pieces of benchmark-driven machinery
// switched off (apps/server/src/platform/bench-switches.ts; `npm run bench -- machinery` measures each one on and off).
const switchedOff = (process.env.KPI_BENCH_OFF ?? "").split(",").filter(Boolean);
for (const piece of switchedOff) {
  if (!machineryPieces.includes(piece as MachineryPiece)) {
    console.error(`KPI_BENCH_OFF: no piece '${piece}' (${machineryPieces.join(", ")})`);
    process.exit(2);
  }
  switchMachinery(piece as MachineryPiece, false);
}

const file = files[0] ?? "";
console.log(
  `KPI ID benchmarks: node ${process.version}, ${availableParallelism()} cores available, bench/${file} in its own process\n`,
);
if (switchedOff.length > 0) console.log(`switched off: ${switchedOff.join(", ")}\n`);
// Peak memory of this process (the services measured in-process, their databases when PGlite, and the
// load drivers); benchmarks that run the service in a child process report that process' own figure.
let peakHeap = 0;
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 50);
sampler.unref();

const module = (await import(new URL(file, directory).href)) as BenchModule;
console.log(`${module.title}  (bench/${file})`);
for (const comparison of await module.run()) print(comparison);
clearInterval(sampler);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
console.log(
  `peak memory of this file's benchmark process: RSS ${mib(process.resourceUsage().maxRSS * 1024)}, JS heap ${mib(peakHeap)}`,
);
