// What a suite of `npm test` cost (scripts/test.ts, issue 75): its wall time and its busy CPU-seconds, and each test
// file's time kept beside the previous run's, so that a change sees what it added.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type CpuGroup, openCpuGroup } from "./cpu-group.ts";

/**
 * The command run under bash, which prints on file descriptor 3, once the command has ended, the user and system
 * time of its children (`times`' second line): the kernel adds up every process the command started and waited for,
 * its test workers and their own children alike. A process that detaches itself and is never waited for by one of
 * them (Chromium's helpers, a server a suite starts and kills) is not counted there: given a cgroup (cpu-group.ts),
 * bash first moves itself into it, so everything it starts is counted by the kernel whether waited for or not.
 * The command itself does not get descriptor 3.
 */
export function measured(command: string, args: string[], group?: CpuGroup): { command: string; args: string[] } {
  const join = group ? 'echo $$ > "$0/cgroup.procs"; ' : "";
  return {
    command: "bash",
    args: ["-c", `${join}"$@" 3>&-; status=$?; times >&3; exit $status`, group?.dir ?? "bash", command, ...args],
  };
}

function seconds(text: string): number {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
}

/** The children's user plus system seconds from what `times` printed; undefined when it printed nothing usable. */
export function busyCpuSeconds(timesOutput: string): number | undefined {
  const children = timesOutput.trim().split("\n")[1]?.trim().split(/\s+/);
  if (children?.length !== 2) return undefined;
  const total = seconds(children[0] ?? "") + seconds(children[1] ?? "");
  return Number.isFinite(total) ? total : undefined;
}

interface ProcessTimes {
  ppid: number;
  /** User and system seconds of the process itself, and of its children it has waited for. */
  own: number;
  children: number;
}

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Every process named `postgres` this user may read, by id; empty where there is no /proc. */
function postgresProcesses(): Map<number, ProcessTimes> {
  const found = new Map<number, ProcessTimes>();
  if (!existsSync("/proc")) return found;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // it has ended meanwhile
    }
    if (!stat.includes("(postgres)")) continue;
    // After the name in parentheses: state, ppid, … utime (11th), stime, cutime, cstime.
    const fields = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    const at = (index: number) => (fields[index] ?? 0) / ticksPerSecond;
    found.set(Number(entry), { ppid: fields[1] ?? 0, own: at(11) + at(12), children: at(13) + at(14) });
  }
  return found;
}

/** Each PostgreSQL server's CPU-seconds so far, by its process id (measured by postgresCpuSecondsSince). */
export type PostgresTimes = Map<number, number>;

/**
 * The CPU-seconds each PostgreSQL server on this machine has spent so far: the server process's own, its ended
 * backends' (added to it as it waits for them), and its backends still running. The tests' PostgreSQL is not a
 * process `npm test` starts, yet the work a test moves from the embedded database to it is work still done.
 */
export function postgresTimesSoFar(): PostgresTimes {
  const processes = postgresProcesses();
  const servers: PostgresTimes = new Map();
  for (const [id, times] of processes) {
    if (!processes.has(times.ppid)) servers.set(id, (servers.get(id) ?? 0) + times.own + times.children);
    else servers.set(times.ppid, (servers.get(times.ppid) ?? 0) + times.own);
  }
  return servers;
}

/**
 * What the PostgreSQL servers have spent since `before`: a server started meanwhile (the cluster suite restarts
 * PostgreSQL) counts whole, one stopped meanwhile not at all, its last moments lost.
 */
export function postgresCpuSecondsSince(before: PostgresTimes): number {
  let total = 0;
  for (const [server, seconds] of postgresTimesSoFar()) total += seconds - (before.get(server) ?? 0);
  return total;
}

export interface SuiteCost {
  wallSeconds: number;
  /** Every process the suite started, and PostgreSQL's when measured; undefined when the command did not start. */
  cpuSeconds?: number;
  /** The PostgreSQL servers' share of cpuSeconds, on a shared machine with other users' queries. */
  postgresCpuSeconds?: number;
}

/** "812 s wall, 1480 busy CPU-s, PostgreSQL's 210 among them" */
export function describeCost(cost: SuiteCost): string {
  const cpu = cost.cpuSeconds === undefined ? "busy CPU-seconds unknown" : `${Math.round(cost.cpuSeconds)} busy CPU-s`;
  const postgres =
    cost.postgresCpuSeconds === undefined ? "" : `, PostgreSQL's ${Math.round(cost.postgresCpuSeconds)} among them`;
  return `${Math.round(cost.wallSeconds)} s wall, ${cpu}${postgres}`;
}

/** A test file (vitest's path or e2e/specs/…) and its time in milliseconds. */
export type FileTimes = Record<string, number>;

const currentName = "file-durations.json";
const previousName = "file-durations.previous.json";

/** The last run's file times, read before the report folder is emptied for this run. */
export function readLastRunFileTimes(reportDir: string): FileTimes | undefined {
  const path = join(reportDir, currentName);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as FileTimes) : undefined;
}

/**
 * Writes this run's file times (and the last run's beside them, when there was one) to the report folder, and prints
 * the files whose time grew most since then, new files included.
 */
export function keepFileTimes(reportDir: string, current: FileTimes, previous: FileTimes | undefined): void {
  const sorted = Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(reportDir, currentName), `${JSON.stringify(sorted, null, 1)}\n`);
  if (!previous) return;
  writeFileSync(join(reportDir, previousName), `${JSON.stringify(previous, null, 1)}\n`);
  const grown = Object.entries(current)
    .map(([file, milliseconds]) => ({ file, milliseconds, added: milliseconds - (previous[file] ?? 0) }))
    .filter((change) => change.added >= 1_000)
    .sort((a, b) => b.added - a.added)
    .slice(0, 10);
  if (grown.length === 0) return;
  console.log(`\nTest files that took longer than in the previous run (${join(reportDir, previousName)})`);
  for (const { file, added } of grown) {
    const mark = previous[file] === undefined ? "  (new)" : "";
    console.log(`  +${(added / 1000).toFixed(1).padStart(5)} s  ${file}${mark}`);
  }
}

/**
 * The server's test files by the CPU time their worker spent on them (the file's code, its app, PGlite; not
 * PostgreSQL's or a program it starts), kept as file-cpu.json in the report folder; the ten costliest are printed.
 * A file's wall time on a 2-core machine running three workers says more of its neighbours than of itself.
 */
export function printCostliestFiles(linesPath: string, reportDir: string): void {
  if (!existsSync(linesPath)) return;
  const cpu: FileTimes = {};
  for (const line of readFileSync(linesPath, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const { file, cpuMilliseconds } = JSON.parse(line) as { file: string; cpuMilliseconds: number };
    cpu[file] = (cpu[file] ?? 0) + cpuMilliseconds;
  }
  const sorted = Object.entries(cpu).sort(([, a], [, b]) => b - a);
  writeFileSync(join(reportDir, "file-cpu.json"), `${JSON.stringify(Object.fromEntries(sorted), null, 1)}\n`);
  const total = sorted.reduce((sum, [, milliseconds]) => sum + milliseconds, 0);
  console.log(`\nServer test files by their worker's CPU-seconds (${Math.round(total / 1000)} in all)`);
  for (const [file, milliseconds] of sorted.slice(0, 10)) {
    console.log(`  ${(milliseconds / 1000).toFixed(1).padStart(6)} s  ${file}`);
  }
}

/**
 * Measures one command of `npm test`: run `command` and `args` as given here (bash around it, in a cgroup of its own
 * where it can be made), push what descriptor 3 prints to `timesOutput`, and read `cost()` once it has ended. With
 * `postgres`, the PostgreSQL servers' time meanwhile is added.
 */
export function startCostMeter(command: string, args: string[], postgres: boolean) {
  const started = performance.now();
  const postgresBefore = postgres ? postgresTimesSoFar() : undefined;
  const group = openCpuGroup(basename(command));
  const timesOutput: Buffer[] = [];
  // Once: a command that cannot start fires both "error" and "close", and the group is gone after the first.
  let measuredCost: SuiteCost | undefined;
  const cost = (): SuiteCost => {
    if (measuredCost) return measuredCost;
    const waitedFor = busyCpuSeconds(Buffer.concat(timesOutput).toString("utf8"));
    // The larger of the two: a group the command could not join (refused by the kernel) counts nothing.
    const processes = group ? Math.max(group.cpuSeconds(), waitedFor ?? 0) : waitedFor;
    group?.remove();
    const postgresSeconds = postgresBefore === undefined ? undefined : postgresCpuSecondsSince(postgresBefore);
    measuredCost = {
      wallSeconds: (performance.now() - started) / 1000,
      cpuSeconds: processes === undefined ? undefined : processes + (postgresSeconds ?? 0),
      postgresCpuSeconds: postgresSeconds,
    };
    return measuredCost;
  };
  return { ...measured(command, args, group), timesOutput, cost };
}
