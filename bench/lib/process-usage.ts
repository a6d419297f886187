import { readFileSync } from "node:fs";

/**
 * What a child process the bench started uses, read from /proc, so the process needs no route of its own
 * to report it and the figure counts everything in it (native allocations, threads), not only a JS heap.
 */

/** Resident memory now (VmRSS) or the most it ever held (VmHWM), in MiB. */
export function procStatusMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

// Linux reports utime and stime in clock ticks; USER_HZ is 100 on every architecture Node runs on.
const ticksPerSecond = 100;

/** CPU time the process has used so far (user and system, all its threads), in seconds. */
export function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the whole line, so 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
