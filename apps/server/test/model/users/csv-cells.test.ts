import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../../../src/surfaces/admin/csv-cells.ts";

describe("CSV cells of the audit export", () => {
  it("prefixes and quotes every cell a spreadsheet would run as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    }
    expect(csvCell('=cmd|" /C calc"!A0')).toBe(`"'=cmd|"" /C calc""!A0"`);
  });

  it("quotes commas, quotes and line breaks, and leaves plain text alone", () => {
    expect(csvCell("Бондар, Іван")).toBe('"Бондар, Іван"');
    expect(csvCell('Віка "В"')).toBe('"Віка ""В"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("2026-03-01T08:00:00.000Z")).toBe("2026-03-01T08:00:00.000Z");
    expect(csvCell(null)).toBe("");
    expect(csvLine(["a", null, "=b"])).toBe(`a,,"'=b"\r\n`);
  });
});
