import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../sandbox/src/diia/index.ts";
import { googleAccounts } from "../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../sandbox/src/google/index.ts";
import { throttlePolicy } from "../../src/platform/throttle/policy.ts";
import { demoPeople } from "../../src/surfaces/seed/demo-data.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../support/app.ts";
import { addPerson, manualClock, sessionCookieFrom } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { askForDeepLink, person, pollDiia, postSignedCallback, startTestDiia } from "../support/diia.ts";
import {
  answerAtGoogle,
  finishGoogleSignIn,
  googleSettings,
  sessionCookieOf,
  startGoogleSignIn,
} from "../support/google.ts";
import { failPasswordChecksFast } from "../support/password-checks.ts";

const owner = demoPeople[0] ?? { username: "student", password: "", fullName: "", email: "", taxId: "" };

describe.each(aboveModelDatabases)("credential attacks on %s", (kind) => {
  let t: TestApp;
  let diia: RunningDiiaStandIn;
  let google: RunningGoogleStandIn;
  // Now, not a fixed date: the Diia stand-in's certificates (made by the worker's first stand-in, valid from an hour
  // before) are checked against this clock.
  const clock = manualClock(new Date());
  let addressCount = 0;
  const freshAddress = () => `198.18.${Math.floor(++addressCount / 250)}.${(addressCount % 250) + 1}`;
  const attempt = (username: string, password: string, remoteAddress: string) =>
    postJson(t.app, "/api/auth", { username, password }, { remoteAddress });
  const tally = (responses: LightMyRequestResponse[]) => {
    const counts: Record<number, number> = {};
    for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
    return counts;
  };

  beforeAll(async () => {
    diia = await startTestDiia();
    google = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    t = await createTestApp(kind, { ...diia.env, ...googleSettings(google) }, { clock: clock.now });
    await addPerson(
      t.app,
      { username: owner.username, fullName: owner.fullName, email: owner.email, taxId: owner.taxId },
      owner.password,
    );
  });
  afterAll(async () => {
    await t.close();
    await diia.close();
    await google.close();
  });

  it("brute force on one account from many addresses: the lock holds, and the owner still signs in by Diia and Google", async () => {
    const guesses = 60;
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < guesses; i++) answers.push(await attempt(owner.username, `guess number ${i}`, freshAddress()));
    const counts = tally(answers);
    console.log(`attacks: brute force, ${guesses} guesses from ${guesses} addresses → ${JSON.stringify(counts)}`);
    // Only the first failures are checked at all; the rest are refused before any password check.
    expect(counts[401]).toBeLessThanOrEqual(throttlePolicy.account.lock.afterFailures);
    expect(counts[429]).toBe(guesses - (counts[401] ?? 0));
    const right = await attempt(owner.username, owner.password, freshAddress());
    expect(right.statusCode).toBe(429);

    const link = await askForDeepLink(t.app);
    expect((await postSignedCallback(t.app, link.requestId, person(diia, owner.username))).statusCode).toBe(200);
    const polled = await pollDiia(t.app, link.requestId, link.cookie);
    const byDiia = await postJson(t.app, "/api/auth/internal", { sessionId: polled.json().sessionId });
    expect((await t.app.inject({ url: "/user", headers: { cookie: sessionCookieFrom(byDiia) } })).statusCode).toBe(200);

    const account = googleAccounts.find((each) => each.email === owner.email);
    if (!account) throw new Error("no Google stand-in account for the owner");
    const started = await startGoogleSignIn(t.app);
    const answer = await answerAtGoogle(started.location, account.sub);
    const byGoogle = sessionCookieOf(await finishGoogleSignIn(t.app, answer, started.cookie));
    expect(byGoogle).toBeDefined();
    console.log("attacks: while the password is locked the owner signed in by Diia and by Google");
  });

  it("password spraying from one address: past its free failures the address waits ever longer, up to a minute", async () => {
    const rule = throttlePolicy.ip;
    const accounts = rule.freeFailures + 40;
    const real = 3;
    for (let i = 0; i < real; i++)
      await addPerson(t.app, { username: `sprayed-${i}`, fullName: `Особа ${i}` }, `own passphrase ${i}`);
    const address = freshAddress();
    const answers: LightMyRequestResponse[] = [];
    // Unknown usernames are throttled exactly like real ones; the sprayed password is wrong everywhere,
    // and hundreds of argon2 checks are not what this test is about.
    const restoreChecks = failPasswordChecksFast(t.app);
    for (let i = 0; i < accounts; i++) answers.push(await attempt(`sprayed-${i}`, "Password2026!", address));
    restoreChecks();
    const counts = tally(answers);
    console.log(
      `attacks: spraying one password over ${accounts} accounts from one address → ${JSON.stringify(counts)}`,
    );
    // The free failures, and the one that starts the delay, are checked; every later guess waits.
    expect(counts[401]).toBe(rule.freeFailures + 1);
    expect(counts[429]).toBe(accounts - rule.freeFailures - 1);
    const waits = answers.filter((answer) => answer.statusCode === 429).map((a) => Number(a.headers["retry-after"]));
    expect(Math.max(...waits)).toBeLessThanOrEqual(rule.maxDelaySeconds);
    // Each sprayed account took one failure: its owner is not locked out by somebody else's spraying.
    expect((await attempt("sprayed-0", "own passphrase 0", freshAddress())).statusCode).toBe(200);
    clock.advance(rule.forgetAfterSeconds);
  });

  it("password spraying from many addresses: each account gets its few free guesses, then waits", async () => {
    const accounts = 15;
    const commonPasswords = ["Password2026!", "qwerty123", "Kpi2026!", "12345678", "iloveyou", "Kyiv2026"];
    for (let i = 0; i < accounts; i++) {
      await addPerson(t.app, { username: `widely-${i}`, fullName: `Особа ${i}` }, `own passphrase ${i}`);
    }
    const answers: LightMyRequestResponse[] = [];
    for (const guess of commonPasswords) {
      for (let i = 0; i < accounts; i++) answers.push(await attempt(`widely-${i}`, guess, freshAddress()));
    }
    const counts = tally(answers);
    console.log(
      `attacks: spraying ${commonPasswords.length} passwords over ${accounts} accounts, every guess from a new address → ${JSON.stringify(counts)}`,
    );
    const checkedPerAccount = throttlePolicy.account.freeFailures + 1;
    expect(counts[401]).toBe(accounts * checkedPerAccount);
    expect(counts[429]).toBe(accounts * (commonPasswords.length - checkedPerAccount));
  });

  it("answers an unknown user and a wrong password alike, and reports how long each took", async () => {
    const rounds = 12;
    for (let i = 0; i < rounds; i++)
      await addPerson(t.app, { username: `timed-${i}`, fullName: `Час ${i}` }, `timed passphrase ${i}`);
    const unknown: number[] = [];
    const wrong: number[] = [];
    const bodies = new Set<string>();
    for (let i = 0; i < rounds; i++) {
      // Interleaved, each from a fresh address and account, so no throttle and no warm-up favours either.
      let started = performance.now();
      const a = await attempt(`nobody-${i}`, "a wrong password", freshAddress());
      unknown.push(performance.now() - started);
      started = performance.now();
      const b = await attempt(`timed-${i}`, "a wrong password", freshAddress());
      wrong.push(performance.now() - started);
      bodies.add(`${a.statusCode} ${a.body}`).add(`${b.statusCode} ${b.body}`);
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
    const difference = median(wrong) - median(unknown);
    console.log(
      `attacks: timing over ${rounds} pairs, median unknown user ${median(unknown).toFixed(1)} ms, wrong password ${median(wrong).toFixed(1)} ms, difference ${difference.toFixed(1)} ms (${((difference / median(wrong)) * 100).toFixed(1)} %)`,
    );
    // The answers themselves are identical; the time is reported, not asserted (no timed assertions in tests).
    expect(bodies.size).toBe(1);
  });

  it("session fixation: a session the browser brought to the sign-in is replaced and dies", async () => {
    await addPerson(t.app, { username: "fixer", fullName: "Нападник" }, "fixer passphrase");
    await addPerson(t.app, { username: "fixed", fullName: "Жертва Фіксації" }, "victim passphrase");
    const address = freshAddress();
    const auth = await attempt("fixer", "fixer passphrase", address);
    const planted = sessionCookieFrom(
      await postJson(t.app, "/api/auth/internal", auth.json(), { remoteAddress: address }),
    );
    const forged = "kpi_id_session=attacker-chosen-value";
    for (const brought of [planted, forged]) {
      const victim = await attempt("fixed", "victim passphrase", freshAddress());
      expect(victim.statusCode).toBe(200);
      const exchanged = await postJson(t.app, "/api/auth/internal", victim.json(), { headers: { cookie: brought } });
      const fresh = sessionCookieFrom(exchanged);
      expect(fresh).not.toBe(brought);
      expect((await t.app.inject({ url: "/user", headers: { cookie: fresh } })).json()).toMatchObject({
        fullName: "Жертва Фіксації",
      });
      expect((await t.app.inject({ url: "/user", headers: { cookie: brought } })).statusCode).toBe(401);
    }
  });
});
