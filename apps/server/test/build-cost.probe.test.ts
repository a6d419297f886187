import { cpuUsage } from "node:process";
import { it } from "vitest";
import { createTestApp } from "./support/app.ts";

it("build cost", async () => {
  for (const protocols of [undefined, undefined, undefined, [], []] as const) {
    const before = cpuUsage();
    const t0 = performance.now();
    const built = await createTestApp("pglite", {}, protocols ? { protocols: [...protocols] } : {});
    await built.app.ready();
    const used = cpuUsage(before);
    console.log(`BUILD ${protocols ? "none" : "all"} cpu=${((used.user + used.system) / 1e6).toFixed(2)}s wall=${((performance.now() - t0) / 1000).toFixed(2)}s`);
    await built.close();
  }
}, 120_000);
