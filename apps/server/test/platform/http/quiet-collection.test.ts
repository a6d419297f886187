import { spawnSync } from "node:child_process";
import Fastify from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  memoryReducingCollection,
  QuietCollector,
  registerQuietCollection,
} from "../../../src/platform/http/quiet-collection.ts";
import { productionNodeFlags } from "../../../src/platform/production-process.ts";

const quietCollectionModule = new URL("../../../src/platform/http/quiet-collection.ts", import.meta.url).href;
const options = { windowMs: 1_000, busyFromRequests: 10, quietBelowRequests: 3 };

describe("collecting once a busy spell has given way to quiet", () => {
  afterEach(() => vi.useRealTimers());

  it("collects once after a busy spell, not while busy, not after a trickle, not again until the next spell", () => {
    const collector = new QuietCollector(options);
    for (let request = 0; request < 12; request++) collector.served();
    expect(collector.windowEnded()).toBe(false); // the busy window itself
    expect(collector.windowEnded()).toBe(true); // the quiet one after it
    expect(collector.windowEnded()).toBe(false); // once per spell
    // Health checks: two a window for a long time add up past a busy window's count, but no window is busy.
    for (let window = 0; window < 8; window++) {
      collector.served();
      collector.served();
      expect(collector.windowEnded()).toBe(false);
    }
  });

  it("the service collects through its request hook and its timer, and stops with the server", async () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const app = Fastify();
    app.get("/ping", async () => ({ ok: true }));
    registerQuietCollection(app, collect, options);
    for (let request = 0; request < 10; request++) await app.inject("/ping");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(collect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    // A second spell, then the server closes: its timer goes with it.
    for (let request = 0; request < 10; request++) await app.inject("/ping");
    await app.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it("the production flags give the service a collection to call", () => {
    const probe = spawnSync(process.execPath, [...productionNodeFlags, "-p", "typeof globalThis.gc"], {
      encoding: "utf8",
    });
    expect(probe.stdout.trim()).toBe("function");
  });

  it("asks V8 for its collection of all available garbage, which gives a grown heap back to the system", () => {
    const gc = vi.fn();
    memoryReducingCollection(gc as unknown as typeof globalThis.gc)?.();
    expect(gc).toHaveBeenCalledWith({ type: "major", execution: "sync", flavor: "last-resort" });
    // Without --expose-gc (tests, the source run bare) there is nothing to call.
    vi.stubGlobal("gc", undefined);
    expect(memoryReducingCollection()).toBeUndefined();
    vi.unstubAllGlobals();
    // A process under the production flags grows its heap by about 120 MiB of short-lived rows, drops them and
    // collects: with a plain gc() it stays that large, with the service's collection it gives the memory back. (What
    // V8 does: should a Node upgrade make a plain gc() give memory back too, this says so.)
    const rssAfter = (collection: "plain" | "service") => {
      const script = `
        import { memoryReducingCollection } from ${JSON.stringify(quietCollectionModule)};
        let kept = [];
        for (let round = 0; round < 30; round++) {
          const rows = [];
          for (let index = 0; index < 20000; index++) rows.push({ index, text: "row ".repeat(5) + index });
          kept.push(rows);
          if (kept.length > 10) kept.shift();
        }
        kept = [];
        ${collection === "plain" ? "globalThis.gc();" : "memoryReducingCollection()();"}
        console.log(process.memoryUsage.rss());`;
      const probe = spawnSync(process.execPath, [...productionNodeFlags, "--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      expect(probe.status, probe.stderr).toBe(0);
      return Number(probe.stdout.trim()) / 1048576;
    };
    const plain = rssAfter("plain");
    const service = rssAfter("service");
    expect(plain - service, `RSS after a plain gc() ${plain} MiB, after the service's ${service} MiB`).toBeGreaterThan(
      50,
    );
  });
});
