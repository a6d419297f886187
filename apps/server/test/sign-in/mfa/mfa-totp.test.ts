import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { type TestBrowserJar, testBrowser } from "../../support/browser.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const password = "a long passphrase for two factors";

describe.each(aboveModelDatabases)("an authenticator app as the second factor (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let addresses = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
  });
  afterAll(() => t.close());

  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const newBrowser = () => testBrowser(t.app, `198.51.100.${++addresses}`);

  async function signInFully(browser: TestBrowserJar, username: string) {
    const auth = await browser.post("/api/auth", { username, password });
    expect(auth.statusCode).toBe(200);
    return browser.post("/api/auth/internal", { sessionId: auth.json().sessionId });
  }

  /** A person who set up an authenticator app from the account page: its secret and recovery codes. */
  async function personWithTotp(username: string) {
    await addPerson(t.app, { username, fullName: "Двофакторна Людина" }, password);
    const browser = newBrowser();
    expect((await signInFully(browser, username)).statusCode).toBe(200);
    const setup = await browser.post("/api/account/totp", {});
    expect(setup.statusCode).toBe(200);
    const { secret, uri } = setup.json();
    expect(uri).toContain(`otpauth://totp/KPI%20ID:${username}`);
    // Not on until confirmed: the next sign-in asks nothing.
    expect((await browser.post("/api/auth", { username, password })).json().secondFactor).toBeUndefined();
    const confirmed = await browser.post("/api/account/totp/confirm", { code: await codeNow(secret) });
    expect(confirmed.statusCode).toBe(200);
    const recoveryCodes: string[] = confirmed.json().recoveryCodes;
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await browser.get("/api/account/second-factor")).json()).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
      required: false,
    });
    clock.advance(30);
    return { secret, recoveryCodes, browser };
  }

  async function sessionAmr(browser: TestBrowserJar) {
    const token = [...browser.jar].find(([name]) => name.endsWith("kpi_id_session"))?.[1];
    const rows = await t.app.db.selectFrom("sessions").select(["amr", "token_hash"]).execute();
    const { hashToken } = await import("../../../src/platform/crypto/tokens.ts");
    return rows.find((row) => Buffer.from(row.token_hash).equals(hashToken(token ?? "")))?.amr;
  }

  it("after the password asks for a code; a code works once; the session is multi-factor", async () => {
    const { secret } = await personWithTotp("two-step");
    const browser = newBrowser();
    const auth = await browser.post("/api/auth", { username: "two-step", password });
    expect(auth.json().secondFactor).toBe("totp");
    const { sessionId } = auth.json();
    // The grant cannot be exchanged before the code.
    expect((await browser.post("/api/auth/internal", { sessionId })).json().code).toBe("auth.grant_invalid");

    const code = await codeNow(secret);
    expect((await browser.post("/api/auth/second-factor", { sessionId, code })).statusCode).toBe(200);
    const internal = await browser.post("/api/auth/internal", { sessionId });
    expect(internal.statusCode).toBe(200);
    expect(await sessionAmr(browser)).toEqual(["pwd", "otp", "mfa"]);

    // The same code, within its time step, on a new sign-in: refused.
    const again = await browser.post("/api/auth", { username: "two-step", password });
    const replay = await browser.post("/api/auth/second-factor", { sessionId: again.json().sessionId, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("auth.code_invalid");
    // A step later the used code is still inside the skew window, and still refused; the new one works.
    clock.advance(30);
    const late = await browser.post("/api/auth/second-factor", { sessionId: again.json().sessionId, code });
    expect(late.statusCode).toBe(401);
    const fresh = await browser.post("/api/auth/second-factor", {
      sessionId: again.json().sessionId,
      code: await codeNow(secret),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it("a recovery code works once, whatever its case and dash", async () => {
    const { recoveryCodes } = await personWithTotp("lost-phone");
    const browser = newBrowser();
    const first = await browser.post("/api/auth", { username: "lost-phone", password });
    const typed = recoveryCodes[0]?.toLowerCase().replace("-", " ") ?? "";
    expect(
      (await browser.post("/api/auth/second-factor", { sessionId: first.json().sessionId, code: typed })).statusCode,
    ).toBe(200);
    expect((await browser.post("/api/auth/internal", { sessionId: first.json().sessionId })).statusCode).toBe(200);
    expect((await browser.get("/api/account/second-factor")).json().recoveryCodesLeft).toBe(9);

    const second = await browser.post("/api/auth", { username: "lost-phone", password });
    const reused = await browser.post("/api/auth/second-factor", {
      sessionId: second.json().sessionId,
      code: recoveryCodes[0] ?? "",
    });
    expect(reused.json().code).toBe("auth.code_invalid");
  });

  it("wrong codes are throttled like wrong passwords: 429 with Retry-After, also for the right code", async () => {
    const { secret } = await personWithTotp("guessed");
    const browser = newBrowser();
    const { sessionId } = (await browser.post("/api/auth", { username: "guessed", password })).json();
    let answer = await browser.post("/api/auth/second-factor", { sessionId, code: "000000" });
    for (let tries = 0; answer.statusCode === 401 && tries < 20; tries++) {
      answer = await browser.post("/api/auth/second-factor", { sessionId, code: `00000${tries % 10}` });
    }
    expect(answer.statusCode).toBe(429);
    expect(answer.json().code).toBe("auth.too_many_attempts");
    expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    const right = await browser.post("/api/auth/second-factor", { sessionId, code: await codeNow(secret) });
    expect(right.statusCode).toBe(429);
    expect(throttlePolicy.device.freeFailures).toBeLessThan(20);
  });

  it("remember this browser: that browser skips the code for 30 days; another browser is asked", async () => {
    const { secret } = await personWithTotp("remembered");
    const mine = newBrowser();
    const { sessionId } = (await mine.post("/api/auth", { username: "remembered", password })).json();
    await mine.post("/api/auth/second-factor", { sessionId, code: await codeNow(secret), rememberBrowser: true });
    await mine.post("/api/auth/internal", { sessionId });

    const next = await mine.post("/api/auth", { username: "remembered", password });
    expect(next.json().secondFactor).toBeUndefined();
    expect((await mine.post("/api/auth/internal", { sessionId: next.json().sessionId })).statusCode).toBe(200);
    expect(await sessionAmr(mine)).toEqual(["pwd", "swk", "mfa"]);

    const other = newBrowser();
    expect((await other.post("/api/auth", { username: "remembered", password })).json().secondFactor).toBe("totp");
    clock.advance(31 * 24 * 3600);
    expect((await mine.post("/api/auth", { username: "remembered", password })).json().secondFactor).toBe("totp");
  });
});
