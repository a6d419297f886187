import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTotpCode, startTotpSetup } from "../../../src/model/mfa/totp.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";

describe("authenticator codes and clock skew", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite", {}, { protocols: [] });
  });
  afterAll(() => t.close());

  it("accepts a code one time step early or late, refuses two steps off, and each step once", async () => {
    const person = await addPerson(t.app, { username: "skewed", fullName: "Годинник Збитий" }, "a long passphrase");
    const now = new Date("2026-11-23T06:00:10Z");
    const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000);
    const { secret } = await startTotpSetup(t.app.db, t.config.sessionSecret, person, now);
    const code = (offsetSeconds: number) => generate({ secret, epoch: Math.floor(at(offsetSeconds).getTime() / 1000) });
    const check = async (typed: string, when: Date, confirming = false) =>
      checkTotpCode(t.app.db, t.config.sessionSecret, person.id, typed, when, confirming);

    // Before its first code the factor is not on: a sign-in code is refused, a confirming one taken.
    expect(await check(await code(0), now)).toBe(false);
    expect(await check(await code(-30), now, true)).toBe(true);
    expect(await check(await code(60), now)).toBe(false);
    expect(await check(await code(30), now)).toBe(true);
    expect(await check(await code(30), now)).toBe(false);
    // A step before the last accepted one can no longer be used.
    expect(await check(await code(0), now)).toBe(false);
    expect(await check("12345a", now)).toBe(false);
  });
});
