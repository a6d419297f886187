import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleAccounts } from "../../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import { requireSecondFactor } from "../../../src/model/users/method-lookups.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import {
  answerAtGoogle,
  finishGoogleSignInAsPage,
  googleSettings,
  sessionCookieOf,
  startGoogleSignIn,
} from "../../support/google.ts";

const [student, disabled] = googleAccounts;
const stranger = googleAccounts.find((a) => a.note.startsWith("no campus account"));
const unverified = googleAccounts.find((a) => !a.email_verified);
const personalAccount = googleAccounts.find((a) => a.hd === undefined && a.email_verified);
const APP_ID = "7d1e0a52-93c4-4c1b-8f0e-2b7a4c9d6e10";

/** The server owns Google's callback: the browser's page load of /google/auth ends in a redirect. */
describe.each(aboveModelDatabases)("the Google callback as a page load (%s)", (kind) => {
  let standIn: RunningGoogleStandIn;
  let t: TestApp;

  beforeAll(async () => {
    standIn = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    t = await createTestApp(kind, googleSettings(standIn), { protocols: ["oidc"] });
    for (const [account, status] of [
      [student, "active"],
      [disabled, "disabled"],
    ] as const) {
      if (!account) throw new Error("no demo Google account");
      const user = await insertUser(t.app.db, {
        username: account.email.split("@")[0] ?? account.sub,
        password_hash: null,
        full_name: account.name,
        email: account.email,
        tax_id: null,
        student_id: null,
        employee_id: null,
        status,
      });
      if (status === "disabled") {
        await t.app.db
          .insertInto("external_identities")
          .values({ provider: "google", subject: account.sub, user_id: user.id })
          .execute();
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  async function signInAsPage(sub: string | undefined, appId?: string, headers: Record<string, string> = {}) {
    const started = await startGoogleSignIn(t.app, appId);
    const answer = await answerAtGoogle(started.location, sub ?? "");
    return finishGoogleSignInAsPage(t.app, answer, started.cookie, headers);
  }

  it("sets the session and sends the browser to the apps list", async () => {
    const response = await signInAsPage(student?.sub);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("/uk/apps");
    const session = sessionCookieOf(response);
    const me = await t.app.inject({ url: "/user", headers: { cookie: `${session?.name}=${session?.value}` } });
    expect(me.json().fullName).toBe(student?.name);
  });

  it("a person the operator requires a second factor of sets one up after Google, one factor, as after a password", async () => {
    const required = await t.app.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", student?.email ?? "")
      .executeTakeFirstOrThrow();
    await requireSecondFactor(t.app.db, required.id, true);
    try {
      const response = await signInAsPage(student?.sub, APP_ID);
      expect(response.headers.location).toBe("/uk/account#second-factor");
      // What the sign-in was for waits for the set-up (mfa/account.ts takes it then).
      expect(response.cookies.find((c) => c.name === "kpi_id_continue")?.value).toBeUndefined();
    } finally {
      await requireSecondFactor(t.app.db, required.id, false);
    }
  });

  it("continues to the application the sign-in started from, in the person's language, and only once", async () => {
    const response = await signInAsPage(student?.sub, APP_ID, { "accept-language": "en" });
    expect(response.headers.location).toBe(`/en/apps?appId=${APP_ID}`);
    expect(response.cookies.find((c) => c.name === "kpi_id_continue")?.value).toBe("");
  });

  it('ignores a "continue to" the browser made up (unsigned) and goes to the apps list', async () => {
    const started = await startGoogleSignIn(t.app);
    const answer = await answerAtGoogle(started.location, student?.sub ?? "");
    const forged = JSON.stringify({
      continueTo: { kind: "protocol", protocol: "oidc", waiting: "planted", path: "/oidc/auth/planted" },
      expiresAt: 4_000_000_000,
    });
    const cookie = `${started.cookie}; kpi_id_continue=${encodeURIComponent(forged)}`;
    const response = await finishGoogleSignInAsPage(t.app, answer, cookie);
    expect(response.headers.location).toBe("/uk/apps");
  });

  const refusals = [
    { who: "a Google account no campus person has", account: stranger, reason: "no_account" },
    {
      who: "a personal Google account outside the university's Workspace",
      account: personalAccount,
      reason: "outside_domain",
    },
    { who: "an address Google has not verified", account: unverified, reason: "email_unverified" },
    { who: "a disabled person", account: disabled, reason: "account_disabled" },
  ];
  for (const { who, account, reason } of refusals) {
    it(`sends ${who} back to the login page with google_auth_error=${reason} and no session`, async () => {
      const response = await signInAsPage(account?.sub);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(`/uk/?google_auth_error=${reason}`);
      expect(sessionCookieOf(response)).toBeUndefined();
    });
  }

  it("calls an answer without this browser's pending sign-in expired", async () => {
    const started = await startGoogleSignIn(t.app);
    const answer = await answerAtGoogle(started.location, student?.sub ?? "");
    const response = await finishGoogleSignInAsPage(t.app, answer, "");
    expect(response.headers.location).toBe("/uk/?google_auth_error=expired");
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it("slows down an address that keeps bringing bad answers, without touching other addresses", async () => {
    const attempt = (remoteAddress: string) =>
      t.app.inject({
        method: "GET",
        url: "/google/auth?code=guessed&state=guessed",
        headers: { accept: "application/json" },
        remoteAddress,
      });
    // The per-address rule is sized for a campus NAT: the free failures and the one after them are
    // answered (401); that last one starts the first delay, so the next answer waits.
    const answered = throttlePolicy.ip.freeFailures + 1;
    const answers = [];
    for (let i = 0; i < answered; i++) answers.push((await attempt("203.0.113.7")).statusCode);
    expect(answers).toEqual(Array(answered).fill(401));
    const blocked = await attempt("203.0.113.7");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe("auth.too_many_attempts");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect((await attempt("203.0.113.8")).statusCode).toBe(401);
  });

  it("answers 400 for a call without code or state, and for oversized values", async () => {
    for (const url of ["/google/auth", "/google/auth?code=abc", `/google/auth?code=${"x".repeat(3000)}&state=s`]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe("request.validation_failed");
    }
  });
});
