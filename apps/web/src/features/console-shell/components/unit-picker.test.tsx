import { describe, expect, it } from "vitest";
import { unitTree } from "../../../../test/console-units.ts";
import { matchingUnits } from "./unit-picker.tsx";

/** The unit picker's search (issue 79): code or name in either language, every word, codes that begin with it first. */
describe("the console's unit search", () => {
  const codes = (query: string) => matchingUnits(unitTree, query).map((unit) => unit.code);

  it("finds units by code, codes that begin with the text first", () => {
    expect(codes("fict")).toEqual(["FICT", "FICT-CS", "FICT-IS"]);
    expect(codes("fel")).toEqual(["FEL"]);
  });

  it("finds units by either language's name, every word anywhere", () => {
    expect(codes("кафедра систем")).toEqual(["FICT-IS"]);
    expect(codes("Faculty")).toEqual(["FEL", "FICT"]);
    expect(codes("електрон")).toEqual(["FEL"]);
  });

  it("lists every unit for an empty search and none for a search nothing matches", () => {
    expect(codes("  ")).toHaveLength(4);
    expect(codes("хімічний")).toEqual([]);
  });
});
