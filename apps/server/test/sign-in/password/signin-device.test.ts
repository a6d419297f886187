import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../../src/model/users/service.ts";
import { throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, sessionCookieFrom } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const password = "owner's own passphrase";

describe.each(aboveModelDatabases)("device cookies against account lockout on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let addressCount = 0;
  const strangerAddress = () => `198.51.100.${++addressCount}`;

  /** One browser: it keeps the cookies the service sets, as a real one does. */
  function browser(address: string) {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const keep = (response: LightMyRequestResponse) => {
      for (const cookie of response.cookies) jar.set(cookie.name, cookie.value);
      return response;
    };
    return {
      jar,
      attempt: async (username: string, pw: string) =>
        keep(
          await postJson(
            t.app,
            "/api/auth",
            { username, password: pw },
            { remoteAddress: address, headers: { cookie: cookieHeader() } },
          ),
        ),
      async signIn(username: string, pw: string) {
        const auth = await this.attempt(username, pw);
        if (auth.statusCode !== 200) return auth;
        return keep(
          await postJson(
            t.app,
            "/api/auth/internal",
            { sessionId: auth.json().sessionId },
            { remoteAddress: address, headers: { cookie: cookieHeader() } },
          ),
        );
      },
    };
  }

  /** A stranger guesses from ever new addresses, waiting out each delay, until the account is locked. */
  async function lockOut(username: string) {
    const rule = throttlePolicy.account;
    let failures = 0;
    while (failures < rule.lock.afterFailures) {
      const guess = await browser(strangerAddress()).attempt(username, `guess ${failures}`);
      if (guess.statusCode === 401) failures += 1;
      else clock.advance(Number(guess.headers["retry-after"]));
    }
  }

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
  });
  afterAll(() => t.close());

  it("with the account locked by a stranger, the owner's browser signs in, a new browser cannot, and the lock lifts on time", async () => {
    await addPerson(t.app, { username: "owner", fullName: "Власниця Облікового Запису" }, password);
    const ownersBrowser = browser("203.0.113.10");
    expect((await ownersBrowser.signIn("owner", password)).statusCode).toBe(200);
    expect(ownersBrowser.jar.has("kpi_id_device")).toBe(true);

    await lockOut("owner");
    const newBrowser = browser("203.0.113.11");
    const refused = await newBrowser.attempt("owner", password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe("auth.too_many_attempts");
    expect(refused.headers["retry-after"]).toBe(String(throttlePolicy.account.lock.seconds));

    const owners = await ownersBrowser.signIn("owner", password);
    expect(owners.statusCode).toBe(200);
    const session = sessionCookieFrom(owners);
    expect((await t.app.inject({ url: "/user", headers: { cookie: session } })).json().fullName).toBe(
      "Власниця Облікового Запису",
    );

    clock.advance(throttlePolicy.account.lock.seconds - 1);
    expect((await newBrowser.attempt("owner", password)).statusCode).toBe(429);
    clock.advance(1);
    expect((await newBrowser.signIn("owner", password)).statusCode).toBe(200);
  });

  it("holds the owner's browser by its own failures only, and never lends its cookie to another account", async () => {
    await addPerson(t.app, { username: "typist", fullName: "Друкарка" }, password);
    await addPerson(t.app, { username: "neighbour", fullName: "Сусідка" }, password);
    const own = browser("203.0.113.20");
    expect((await own.signIn("typist", password)).statusCode).toBe(200);
    const rule = throttlePolicy.device;
    for (let typo = 0; typo <= rule.freeFailures; typo++)
      expect((await own.attempt("typist", "typo")).statusCode).toBe(401);
    const held = await own.attempt("typist", password);
    expect(held.statusCode).toBe(429);
    expect(held.headers["retry-after"]).toBe(String(rule.firstDelaySeconds));
    // The browser's failures were its own: the account is not locked for anyone else.
    expect((await browser("203.0.113.21").attempt("typist", password)).statusCode).toBe(200);
    clock.advance(rule.firstDelaySeconds);
    expect((await own.attempt("typist", password)).statusCode).toBe(200);

    // The cookie names its accounts: for another account this browser is a new browser.
    await lockOut("neighbour");
    expect((await own.attempt("neighbour", password)).statusCode).toBe(429);
    clock.advance(throttlePolicy.account.lock.seconds);
  });

  it("counts a browser with a forged device cookie as a new browser", async () => {
    await addPerson(t.app, { username: "forged", fullName: "Підроблена" }, password);
    const own = browser("203.0.113.30");
    expect((await own.signIn("forged", password)).statusCode).toBe(200);
    await lockOut("forged");
    const forger = browser("203.0.113.31");
    const genuine = own.jar.get("kpi_id_device") ?? "";
    forger.jar.set("kpi_id_device", genuine.replace(/\.[^.]+$/, ".AAAA"));
    expect((await forger.attempt("forged", password)).statusCode).toBe(429);
    clock.advance(throttlePolicy.account.lock.seconds);
  });

  it("`user unlock` lifts the lock at once, and the audit log says an operator did", async () => {
    const person = await addPerson(t.app, { username: "unlocked", fullName: "Розблокована" }, password);
    await lockOut("unlocked");
    const newBrowser = browser("203.0.113.40");
    expect((await newBrowser.attempt("unlocked", password)).statusCode).toBe(429);

    const run = await runCliOn(t.database.handle, ["user", "unlock", "--username", "unlocked", "--json"], {
      env: { SESSION_SECRET: t.config.sessionSecret },
    });
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ username: "unlocked", unlocked: true });
    expect((await newBrowser.attempt("unlocked", password)).statusCode).toBe(200);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "reason"])
      .where("user_id", "=", person.id)
      .where("event_type", "=", "account_unlocked")
      .orderBy("audit_events.id")
      .execute();
    expect(rows).toEqual([{ event_type: "account_unlocked", result: "success", reason: "operator" }]);
    const unknown = await runCliOn(t.database.handle, ["user", "unlock", "--username", "nobody-at-all"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no user 'nobody-at-all'");
  });

  it("keeps signing people in behind one campus NAT: many people, one address, some typos", async () => {
    // An hour at a dormitory's NAT: 60 people sign in from one address, every one of the first 45
    // mistypes first (some twice): more failures than the old per-address wall allowed.
    const nat = "192.0.2.250";
    const people = 60;
    // One shared passphrase hashed once: creating 60 people need not cost 60 argon2 hashes.
    const passphraseHash = await t.app.passwordHasher.hash("resident passphrase");
    const hashOnce = { ...t.app.passwordHasher, hash: async () => passphraseHash };
    for (let i = 0; i < people; i++) {
      const resident = { username: `resident-${i}`, fullName: `Мешканка ${i}` };
      await createUser(t.app.db, hashOnce, resident, "resident passphrase");
    }
    let typos = 0;
    const refusedRightPasswords: string[] = [];
    for (let i = 0; i < people; i++) {
      const someone = browser(nat);
      const mistakes = i < 45 ? (i % 4 === 0 ? 2 : 1) : 0;
      for (let m = 0; m < mistakes; m++) {
        expect((await someone.attempt(`resident-${i}`, "resident pasphrase")).statusCode).toBe(401);
        typos += 1;
      }
      const right = await someone.signIn(`resident-${i}`, "resident passphrase");
      if (right.statusCode !== 200) refusedRightPasswords.push(`resident-${i}: ${right.statusCode}`);
      clock.advance(60);
    }
    console.log(`campus NAT: ${people} people, ${typos} typos from one address in an hour, all signed in`);
    expect(typos).toBeGreaterThan(41);
    expect(refusedRightPasswords).toEqual([]);
  });
});
