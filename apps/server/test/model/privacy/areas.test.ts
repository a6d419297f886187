import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { personDataAreas } from "../../../src/model/privacy/areas.ts";

const model = new URL("../../../src/model/", import.meta.url);

describe("the person-data areas erasure and the clean-up visit (issue 74)", () => {
  it("lists every model area that has a person-data.ts, once, by its folder's name", () => {
    const withPersonData = readdirSync(model, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/person-data.ts`, model)))
      .map((entry) => entry.name)
      .sort();
    expect(personDataAreas.map((area) => area.area).sort()).toEqual(withPersonData);
  });
});
