import { describe, expect, it } from "vitest";
import { goalLine } from "../../../../bench/lib/goal-line.ts";
import type { Comparison } from "../../../../bench/lib/types.ts";

function comparison(subject: number, baseline: number, goal: Comparison["goal"], unit = "/s"): Comparison {
  return {
    subject: { label: "subject", value: subject, unit },
    baseline: { label: "floor", value: baseline, unit },
    method: "test",
    goal,
  };
}

describe("the GOAL line npm run bench prints for each row of issue 63's table", () => {
  it("says a ratio at or above its goal is met", () => {
    const line = goalLine(comparison(60, 100, { name: "refresh-1", floor: "library", target: 0.6, bound: "atLeast" }));
    expect(line).toBe("GOAL refresh-1 ratio=0.60 floor=library goal=0.6 met=yes");
  });

  it("says a ratio below its goal is not met", () => {
    const line = goalLine(comparison(34, 100, { name: "refresh-8", floor: "library", target: 0.6, bound: "atLeast" }));
    expect(line).toBe("GOAL refresh-8 ratio=0.34 floor=library goal=0.6 met=no");
  });

  it("judges an at-most goal on the ratio as printed", () => {
    const goal = { name: "rss-after-load", floor: "idle-rss", target: 1.1, bound: "atMost" } as const;
    expect(goalLine(comparison(110.4, 100, goal, "MiB"))).toBe(
      "GOAL rss-after-load ratio=1.10 floor=idle-rss goal=1.1 met=yes",
    );
    expect(goalLine(comparison(112, 100, goal, "MiB"))).toBe(
      "GOAL rss-after-load ratio=1.12 floor=idle-rss goal=1.1 met=no",
    );
  });

  it("prints MiB over the floor, with its unit, for a goal stated as room over the floor", () => {
    const goal = { name: "idle-rss", floor: "library", target: 15, bound: "atMost", measure: "difference" } as const;
    expect(goalLine(comparison(110.5, 84, goal, "MiB"))).toBe(
      "GOAL idle-rss ratio=26.50 floor=library goal=15 unit=MiB met=no",
    );
    expect(goalLine(comparison(95, 84, goal, "MiB"))).toBe(
      "GOAL idle-rss ratio=11.00 floor=library goal=15 unit=MiB met=yes",
    );
  });

  it("judges a goal stated as a time on the subject's p99, in ms", () => {
    const goal = { name: "people-search-unit", floor: "me", target: 50, bound: "atMost", measure: "p99" } as const;
    const timed = (p99Ms: number): Comparison => ({
      subject: { label: "search", value: 40, unit: "/s/core", p50Ms: 20, p99Ms },
      baseline: { label: "me", value: 900, unit: "/s/core", p50Ms: 1, p99Ms: 2 },
      method: "test",
      goal,
    });
    expect(goalLine(timed(41.234))).toBe("GOAL people-search-unit ratio=41.23 floor=me goal=50 unit=ms met=yes");
    expect(goalLine(timed(449))).toBe("GOAL people-search-unit ratio=449.00 floor=me goal=50 unit=ms met=no");
  });

  it("never says met for a floor that measured nothing", () => {
    const line = goalLine(comparison(10, 0, { name: "userinfo", floor: "library", target: 0.8, bound: "atLeast" }));
    expect(line).toBe("GOAL userinfo ratio=Infinity floor=library goal=0.8 met=no");
  });

  it("prints nothing for a comparison that is no row of the table", () => {
    expect(goalLine(comparison(1, 1, undefined))).toBeUndefined();
  });
});
