import { readdirSync, readFileSync } from "node:fs";
import { procCpuSeconds } from "../process-usage.ts";

// CPU seconds of each tier over a step, from /proc: KPI ID's process (every thread: argon2's too), the PostgreSQL
// backends serving the rush's database (their process title names it), FreeRADIUS when it runs, and the stand-ins'
// process (Google, Diia, BankID: their DSTU signatures are what a Diia or BankID journey waits for besides KPI ID).

export type Tier = "kpi-id" | "postgresql" | "freeradius" | "stand-ins";

function pids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

function cpuOf(pid: number): number | undefined {
  try {
    return procCpuSeconds(pid);
  } catch {
    return undefined; // ended meanwhile
  }
}

export interface TierProcesses {
  kpiId: number[];
  /** The rush database's name: PostgreSQL's backends carry it in their title. */
  database: string;
  freeradius?: number;
  standIns?: number;
}

/** Per-process CPU seconds now, by tier. */
export function sampleCpu(processes: TierProcesses): Map<Tier, Map<number, number>> {
  const sample = new Map<Tier, Map<number, number>>([
    ["kpi-id", new Map()],
    ["postgresql", new Map()],
    ["freeradius", new Map()],
    ["stand-ins", new Map()],
  ]);
  const put = (tier: Tier, pid: number) => {
    const cpu = cpuOf(pid);
    if (cpu !== undefined) sample.get(tier)?.set(pid, cpu);
  };
  for (const pid of processes.kpiId) put("kpi-id", pid);
  if (processes.freeradius) put("freeradius", processes.freeradius);
  if (processes.standIns) put("stand-ins", processes.standIns);
  for (const pid of pids()) {
    const line = commandLine(pid);
    if (line.startsWith("postgres: ") && line.includes(` ${processes.database} `)) put("postgresql", pid);
  }
  return sample;
}

/**
 * CPU seconds used between two samples, by tier. A backend that started meanwhile counts from zero; one that ended
 * meanwhile loses what it used since the first sample (the pool keeps its connections, so that is rare).
 */
export function cpuBetween(
  before: Map<Tier, Map<number, number>>,
  after: Map<Tier, Map<number, number>>,
): Record<Tier, number> {
  const used = { "kpi-id": 0, postgresql: 0, freeradius: 0, "stand-ins": 0 };
  for (const [tier, processes] of after) {
    for (const [pid, cpu] of processes) used[tier] += cpu - (before.get(tier)?.get(pid) ?? 0);
  }
  return used;
}

/** Busy and total clock ticks of one core so far (/proc/stat's cpuN line: busy is all but idle and iowait). */
export function coreTicks(core: string): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8")
    .split("\n")
    .find((each) => each.startsWith(`cpu${core} `));
  const fields = (line ?? "").trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, each) => sum + each, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
