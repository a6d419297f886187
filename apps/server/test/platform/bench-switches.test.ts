import { afterEach, describe, expect, it } from "vitest";
import { machineryOn, machineryPieces, switchMachinery } from "../../src/platform/bench-switches.ts";

// The service outside the bench runs every piece: only bench/machinery.bench.ts and KPI_BENCH_OFF turn one off.
describe("the bench's switches", () => {
  afterEach(() => {
    for (const piece of machineryPieces) switchMachinery(piece, true);
  });

  it("leave every piece on unless the bench turns it off", () => {
    for (const piece of machineryPieces) expect(machineryOn(piece)).toBe(true);
  });

  it("turn one piece off and on again, and no other", () => {
    switchMachinery("precompiled", false);
    expect(machineryOn("precompiled")).toBe(false);
    expect(machineryPieces.filter((piece) => !machineryOn(piece))).toEqual(["precompiled"]);
    switchMachinery("precompiled", true);
    expect(machineryOn("precompiled")).toBe(true);
  });
});
