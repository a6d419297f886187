// npm test's busy CPU-seconds per suite (scripts/test.ts, issue 75) must count the processes a suite starts and does
// not wait for: the browser suite's Chromium helpers and servers are reaped by init, and `times` alone lost them.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openCpuGroup } from "../../../../scripts/cpu-group.ts";
import { busyCpuSeconds, measured } from "../../../../scripts/test-costs.ts";

// About half a second of CPU in a process its shell does not wait for: detached with setsid, the shell exits first.
const orphanWork = ["-c", "setsid sh -c 'i=0; while [ $i -lt 600000 ]; do i=$((i+1)); done' & exit 0"];

function runMeasured(group: ReturnType<typeof openCpuGroup>) {
  const wrapped = measured("sh", orphanWork, group);
  const ran = spawnSync(wrapped.command, wrapped.args, { stdio: ["ignore", "ignore", "ignore", "pipe"] });
  return String(ran.output[3] ?? "");
}

describe("a suite's CPU-seconds", () => {
  it("count a process the suite left to init, where the machine gives a cgroup", async () => {
    const group = openCpuGroup("test-costs");
    if (!group) {
      // No cpuacct cgroup to make (not Linux, or not permitted): the figure is `times`', which this shows is a floor.
      expect(busyCpuSeconds(runMeasured(undefined))).toBeGreaterThanOrEqual(0);
      return;
    }
    const timesOnly = busyCpuSeconds(runMeasured(undefined)) ?? 0;
    runMeasured(group);
    // The orphan runs on after its shell has gone: wait until the group has no process left.
    const procs = () => spawnSync("cat", [`${group.dir}/cgroup.procs`], { encoding: "utf8" }).stdout.trim();
    for (let waited = 0; procs() !== "" && waited < 600; waited++) await new Promise((done) => setTimeout(done, 100));
    const counted = group.cpuSeconds();
    group.remove();
    expect(timesOnly).toBeLessThan(0.1);
    expect(counted).toBeGreaterThan(0.3);
  });
});
