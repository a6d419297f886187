// Where the kernel can count it, a suite's CPU time is read from a cgroup of its own (Linux cpuacct, cgroup v1) that
// every process the suite starts joins and cannot leave by detaching: Chromium's helpers and the servers the browser
// suite starts are reaped by init, not by the command, so `times` (below) never saw them. Measured on this 2-core
// machine, `times` reported 355 of the browser suite's CPU-seconds (issue 75). The group is made inside the cgroup
// this process is already in, so a caller measuring the whole run (a cgroup around .ci/run) still counts the suite.
import { mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";

export interface CpuGroup {
  /** The cgroup's folder: the command's first step writes its own process id to cgroup.procs there. */
  readonly dir: string;
  /** The CPU-seconds of every process that was in the group. */
  cpuSeconds(): number;
  /** Removes the group once it has no process left; one still running keeps it (the kernel refuses). */
  remove(): void;
}

const hierarchy = "/sys/fs/cgroup/cpuacct";

/** This process's cpuacct cgroup, from /proc/self/cgroup ("2:cpuacct:/some/path", or "cpu,cpuacct"). */
function ownCpuacctPath(): string | undefined {
  const line = readFileSync("/proc/self/cgroup", "utf8")
    .split("\n")
    .find((entry) => entry.split(":")[1]?.split(",").includes("cpuacct"));
  // The path is the rest of the line: a cgroup path may itself hold colons (containerd's systemd driver).
  return line?.split(":").slice(2).join(":");
}

/** A new cpuacct cgroup for one suite, or undefined where there is none this process may make (then `times`). */
export function openCpuGroup(name: string): CpuGroup | undefined {
  try {
    const own = ownCpuacctPath();
    if (own === undefined) return undefined;
    const dir = join(hierarchy, own, `${name}-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const usage = () => Number(readFileSync(join(dir, "cpuacct.usage"), "utf8")) / 1e9;
    if (!Number.isFinite(usage())) return undefined;
    return {
      dir,
      cpuSeconds: usage,
      remove: () => {
        try {
          rmdirSync(dir);
        } catch {
          // A process still in it (a daemon the suite left running): the empty folder goes with the next boot.
        }
      },
    };
  } catch {
    return undefined;
  }
}
