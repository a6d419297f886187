// The build's last step (scripts/ascii-chunks.ts): a bundle chunk made ASCII without changing what it does.
import { describe, expect, it } from "vitest";
import { escapeComments, isAscii } from "../../../scripts/ascii-chunks.ts";

describe("a chunk's characters past ASCII", () => {
  it("are written as escapes inside comments, and the code around them is left as it was", () => {
    const code = 'const a = "x";/*! Jimmy Wärting 😀 */function f(){return 1}// ü\nexport{f};';
    const escaped = escapeComments("chunk.mjs", code);
    expect(escaped).toBe(
      'const a = "x";/*! Jimmy W\\u{e4}rting \\u{1f600} */function f(){return 1}// \\u{fc}\nexport{f};',
    );
    expect(isAscii(escaped ?? "")).toBe(true);
  });

  it("are left alone when one is outside a comment: a tagged template's raw text, even one that looks like a comment", () => {
    const code = "const t = String.raw`/*! ä */`;/*! Wärting */";
    expect(escapeComments("chunk.mjs", code)).toBeUndefined();
  });

  it("are left alone when the chunk does not parse", () => {
    expect(escapeComments("chunk.mjs", "const = /*! ä */")).toBeUndefined();
  });
});
