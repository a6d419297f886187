import { createHash } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleAccounts } from "../../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import { linkGoogleSubject } from "../../../src/model/google/identities.ts";
import { findUserById, insertUser, updateUser } from "../../../src/model/users/queries.ts";
import { emailVerified } from "../../../src/protocols/oidc/claims.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import {
  answerAtGoogle,
  demoGoogleAccount,
  finishGoogleSignIn,
  googleSettings,
  refusal,
  refused,
  sessionCookieOf,
  startGoogleSignIn,
} from "../../support/google.ts";

const account = demoGoogleAccount;
const student = account(0);
const employee = account(1);
const disabledPerson = account(2);
const newcomer = account(3);
const stranger = googleAccounts.find((a) => a.note.startsWith("no campus account")) ?? account(4);
const unverified = googleAccounts.find((a) => !a.email_verified) ?? account(5);
const personalAccount = googleAccounts.find((a) => a.hd === undefined && a.email_verified) ?? account(6);

const APP_ID = "5b0c2f7e-3a51-4c1e-9d59-0b6f5f0f2a11";

describe.each(aboveModelDatabases)("sign-in with Google (%s)", (kind) => {
  let standIn: RunningGoogleStandIn;
  let testApp: TestApp;
  const userIds: Record<string, string> = {};

  beforeAll(async () => {
    standIn = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    // The app's clock stands still: pending sign-ins and throttles are judged at one instant.
    const frozen = new Date();
    testApp = await createTestApp(kind, googleSettings(standIn), { protocols: [], clock: () => frozen });
    const people = [
      { username: "student", account: student, status: "active" as const },
      { username: "employee", account: employee, status: "active" as const },
      { username: "gone", account: disabledPerson, status: "disabled" as const },
      { username: "newcomer", account: newcomer, status: "active" as const },
      // A campus person whose recorded address is a personal one: the mailbox may since belong to someone else.
      { username: "recycled", account: personalAccount, status: "active" as const },
    ];
    for (const person of people) {
      const user = await insertUser(testApp.app.db, {
        username: person.username,
        password_hash: null,
        full_name: person.account.name,
        email: person.account.email,
        tax_id: null,
        student_id: null,
        employee_id: null,
        status: person.status,
      });
      userIds[person.username] = user.id;
    }
  });
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
  });

  const googleLinks = (subject: string) =>
    testApp.app.db
      .selectFrom("external_identities")
      .select(["user_id", "provider"])
      .where("subject", "=", subject)
      .execute();

  /** The OpenID Connect `email_verified` claim applications get for the person. */
  const verifiedForApplications = async (username: string) => {
    const user = await findUserById(testApp.app.db, userIds[username] ?? "");
    return user ? emailVerified(user) : undefined;
  };

  const sessionsOf = async (username: string) => {
    const sessions = testApp.app.db.selectFrom("sessions").select("auth_method");
    return (await sessions.where("user_id", "=", userIds[username] ?? "").execute()).length;
  };

  /** Refused with google.failed, no session cookie, and the audit row names why. */
  async function expectRefused(response: LightMyRequestResponse, reason: string) {
    expect(refusal(response)).toEqual(refused);
    const last = await testApp.app.db
      .selectFrom("audit_events")
      .select(["reason", "result", "user_id"])
      .where("auth_method", "=", "GOOGLE")
      .where("event_type", "=", "sign_in")
      .orderBy("id", "desc")
      .executeTakeFirst();
    expect(last).toEqual({ reason, result: "failure", user_id: null });
  }

  it("says Google is enabled in the public settings", async () => {
    const settings = await testApp.app.inject({ method: "GET", url: "/api/settings" });
    expect(settings.json().googleEnabled).toBe(true);
  });

  it("sends the browser to the provider with PKCE, a nonce and a random state; the appId stays with the server", async () => {
    const response = await testApp.app.inject({ method: "GET", url: `/api/google/redirect?appId=${APP_ID}` });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(standIn.issuer);
    const params = location.searchParams;
    expect(params.get("client_id")).toBe(standIn.client.clientId);
    expect(params.get("redirect_uri")).toBe(`${TEST_PUBLIC_URL}/google-auth`);
    expect(params.get("response_type")).toBe("code");
    expect(params.get("scope")).toBe("openid email profile");
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("nonce")?.length).toBeGreaterThanOrEqual(43);
    expect(params.get("state")).toMatch(/^[\w-]{22}$/);
    expect(response.body).not.toContain(APP_ID);
    expect(String(response.headers.location)).not.toContain(APP_ID);
    const continueTo = response.cookies.find((c) => c.name === "kpi_id_continue");
    expect(continueTo).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 600 });
    const unsigned = testApp.app.unsignCookie(continueTo?.value ?? "");
    expect(unsigned.valid).toBe(true);
    expect(JSON.parse(unsigned.value ?? "{}").continueTo).toEqual({ kind: "application", appId: APP_ID });

    const cookie = response.cookies.find((c) => c.name === "kpi_id_google");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 600 });
    // Signed, so the browser cannot swap in a verifier or nonce of its own.
    expect(testApp.app.unsignCookie(cookie?.value ?? "").valid).toBe(true);
  });

  it('keeps no "continue to" when there is no appId', async () => {
    const { cookie } = await startGoogleSignIn(testApp.app);
    expect(cookie).not.toContain("kpi_id_continue");
  });

  it("refuses an appId that is not a uuid, and never echoes it into a Location", async () => {
    const evil = "https://evil.example/%0d%0aSet-Cookie:x=1";
    const api = await testApp.app.inject({
      method: "GET",
      url: `/api/google/redirect?appId=${encodeURIComponent(evil)}`,
      headers: { accept: "application/json" },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json().code).toBe("request.validation_failed");
    const browser = await testApp.app.inject({
      method: "GET",
      url: `/api/google/redirect?appId=${encodeURIComponent(evil)}`,
      headers: { accept: "text/html", "accept-language": "en" },
    });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe("/en/?google_auth_error=failed");
  });

  it("signs in the person with that verified e-mail, links the subject and audits AUTH_METHOD GOOGLE", async () => {
    const started = await startGoogleSignIn(testApp.app, APP_ID);
    const answer = await answerAtGoogle(started.location, student.sub);
    const response = await finishGoogleSignIn(testApp.app, answer, started.cookie);
    expect(response.statusCode).toBe(200);
    const session = sessionCookieOf(response);
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    // The pending sign-in is spent.
    expect(response.cookies.find((c) => c.name === "kpi_id_google")?.value).toBe("");

    const me = await testApp.app.inject({
      method: "GET",
      url: "/user",
      headers: { cookie: `${session?.name}=${session?.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().fullName).toBe(student.name);
    expect(me.json().data.AUTH_METHOD).toBe("GOOGLE");
    expect(await googleLinks(student.sub)).toEqual([{ user_id: userIds.student, provider: "google" }]);
    // Google vouched for the address: applications now get email_verified: true for it.
    expect(await verifiedForApplications("student")).toBe(true);

    const events = await testApp.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "auth_method"])
      .where("user_id", "=", userIds.student ?? "")
      .where("event_type", "=", "sign_in")
      .orderBy("audit_events.id")
      .execute();
    expect(events).toContainEqual({ event_type: "sign_in", result: "success", auth_method: "GOOGLE" });
  });

  it("finds the person by the linked subject on the next sign-in, even after their e-mail changed", async () => {
    const studentId = userIds.student ?? "";
    await updateUser(testApp.app.db, studentId, { email: "olena.k@new-address.kpi.ua" });
    try {
      const started = await startGoogleSignIn(testApp.app);
      const answer = await answerAtGoogle(started.location, student.sub);
      const response = await finishGoogleSignIn(testApp.app, answer, started.cookie);
      expect(response.statusCode).toBe(200);
      expect(sessionCookieOf(response)).toBeDefined();
      // The new address is not the one Google vouched for.
      expect(await verifiedForApplications("student")).toBe(false);
    } finally {
      await updateUser(testApp.app.db, studentId, { email: student.email });
    }
    expect(await verifiedForApplications("student")).toBe(true);
  });

  it("refuses an answer whose state is not the one this browser's cookie holds (forged state)", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, newcomer.sub);
    const forged = "forged-state-forged-st";
    const response = await finishGoogleSignIn(testApp.app, { code: answer.code, state: forged }, started.cookie);
    await expectRefused(response, "google.state_mismatch");
    expect(await sessionsOf("newcomer")).toBe(0);
  });

  it("refuses an answer brought without the pending sign-in cookie (login CSRF)", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, newcomer.sub);
    await expectRefused(await finishGoogleSignIn(testApp.app, answer), "google.no_pending_sign_in");
    expect(await sessionsOf("newcomer")).toBe(0);
  });

  it("refuses a pending sign-in cookie whose signature is wrong", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, newcomer.sub);
    const unsigned = testApp.app.unsignCookie(started.cookieValue).value ?? "";
    const forgedCookie = `kpi_id_google=${encodeURIComponent(`${unsigned}.forgedsignature`)}`;
    await expectRefused(await finishGoogleSignIn(testApp.app, answer, forgedCookie), "google.no_pending_sign_in");
  });

  it("refuses a replayed code, even with the cookie it first came with", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, employee.sub);
    const first = await finishGoogleSignIn(testApp.app, answer, started.cookie);
    expect(first.statusCode).toBe(200);
    const sessionsAfterFirst = await sessionsOf("employee");
    const replay = await finishGoogleSignIn(testApp.app, answer, started.cookie);
    await expectRefused(replay, "google.token_invalid_grant");
    expect(await sessionsOf("employee")).toBe(sessionsAfterFirst);
  });

  it("refuses an ID token whose nonce is not the one this browser's sign-in was given", async () => {
    const started = await startGoogleSignIn(testApp.app);
    // An attacker reuses the victim's state and verifier but got the code with a nonce of their own.
    const pending = JSON.parse(testApp.app.unsignCookie(started.cookieValue).value ?? "{}");
    const tampered = new URL(started.location);
    tampered.searchParams.set("nonce", "a-nonce-the-product-never-issued");
    tampered.searchParams.set("code_challenge", createHash("sha256").update(pending.codeVerifier).digest("base64url"));
    const answer = await answerAtGoogle(tampered, newcomer.sub);
    await expectRefused(await finishGoogleSignIn(testApp.app, answer, started.cookie), "google.id_token_nonce");
    expect(await sessionsOf("newcomer")).toBe(0);
  });

  it("refuses a Google account whose e-mail Google has not verified, though a campus person holds it", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, unverified.sub);
    await expectRefused(await finishGoogleSignIn(testApp.app, answer, started.cookie), "google.email_unverified");
    expect(await googleLinks(unverified.sub)).toEqual([]);
  });

  it("refuses a Google account that matches no campus person", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, stranger.sub);
    await expectRefused(await finishGoogleSignIn(testApp.app, answer, started.cookie), "google.no_match");
    expect(await googleLinks(stranger.sub)).toEqual([]);
  });

  it("does not link a personal Google account to the campus person holding its address; an explicit link signs it in", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, personalAccount.sub);
    await expectRefused(await finishGoogleSignIn(testApp.app, answer, started.cookie), "google.outside_domain");
    expect(await googleLinks(personalAccount.sub)).toEqual([]);
    expect(await sessionsOf("recycled")).toBe(0);

    // An operator checked who holds the account and linked it (npx kpi-id user link-google).
    await linkGoogleSubject(testApp.app.db, userIds.recycled ?? "", personalAccount.sub);
    const again = await startGoogleSignIn(testApp.app);
    const linkedAnswer = await answerAtGoogle(again.location, personalAccount.sub);
    const response = await finishGoogleSignIn(testApp.app, linkedAnswer, again.cookie);
    expect(response.statusCode).toBe(200);
    expect(await sessionsOf("recycled")).toBe(1);
  });

  it("refuses a disabled person, by e-mail and by an existing link", async () => {
    const started = await startGoogleSignIn(testApp.app);
    const answer = await answerAtGoogle(started.location, disabledPerson.sub);
    // Only active people are matched by e-mail.
    await expectRefused(await finishGoogleSignIn(testApp.app, answer, started.cookie), "google.no_match");

    await testApp.app.db
      .insertInto("external_identities")
      .values({ provider: "google", subject: disabledPerson.sub, user_id: userIds.gone ?? "" })
      .execute();
    const again = await startGoogleSignIn(testApp.app);
    const secondAnswer = await answerAtGoogle(again.location, disabledPerson.sub);
    await expectRefused(await finishGoogleSignIn(testApp.app, secondAnswer, again.cookie), "user.disabled");
    expect(await sessionsOf("gone")).toBe(0);
  });
});
