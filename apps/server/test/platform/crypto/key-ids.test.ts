import { describe, expect, it } from "vitest";
import { newKeyId } from "../../../src/platform/crypto/tokens.ts";

// Operators name keys on the command line (`keys retire --kid`, `saml keys remove --kid`): an id starting with
// "-" was read as another option (saml-cli.test.ts failed on one such random id in CI).
describe("signing key ids", () => {
  it("never start with a dash, stay 16 base64url characters and differ", () => {
    // One random base64url id in 64 starts with "-": 2,000 of them all but surely include such a draw.
    const ids = Array.from({ length: 2000 }, () => newKeyId());
    expect(ids.filter((id) => id.startsWith("-"))).toEqual([]);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
