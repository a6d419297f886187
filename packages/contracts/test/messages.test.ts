import { describe, expect, it } from "vitest";
import { enErrorMessages, errorCodes, errorMessage, errorStatus, isErrorCode, ukErrorMessages } from "../src/index.ts";

describe("error catalogue", () => {
  it("has a Ukrainian and an English message for every code, and they differ", () => {
    for (const code of errorCodes) {
      expect(ukErrorMessages[code], code).toMatch(/\S/);
      expect(enErrorMessages[code], code).toMatch(/\S/);
      expect(ukErrorMessages[code]).not.toBe(enErrorMessages[code]);
    }
    expect(Object.keys(ukErrorMessages).sort()).toEqual([...errorCodes].sort());
    expect(Object.keys(enErrorMessages).sort()).toEqual([...errorCodes].sort());
  });

  it("maps every code to a 4xx or 5xx status", () => {
    for (const code of errorCodes) expect(errorStatus[code]).toBeGreaterThanOrEqual(400);
  });

  it("recognises its own codes only", () => {
    expect(isErrorCode("auth.invalid_credentials")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(errorMessage("auth.invalid_credentials", "en")).toBe("Wrong username or password.");
  });
});
