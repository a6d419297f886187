import type { ErrorBody, PasswordChanged, PasswordStatus } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createSession } from "../../../src/model/sessions/store.ts";
import { sessionCookieName } from "../../../src/platform/http/session-cookie.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addPersonWithVerifiedEmail, startTestMail } from "../../support/mail.ts";

const oldPassword = "a walk along the dnipro";
const newPassword = "lanterns over podil at dusk";
const firefox = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0";

async function auditRows(app: FastifyInstance, type: string) {
  return (
    app.db
      .selectFrom("audit_events")
      .select(["result", "reason", "user_id"])
      .where("event_type", "=", type)
      // In the order they were written: without it PostgreSQL may return a table's rows in any order (a run did).
      .orderBy("id")
      .execute()
  );
}

/** Issue 16: changing (or setting) one's password on the account page. */
describe.each(aboveModelDatabases)("changing my password (%s)", (kind) => {
  let test: TestApp;
  let mail: RunningMailStandIn;
  const clock = manualClock();

  beforeAll(async () => {
    mail = await startTestMail();
    test = await createTestApp(kind, { SMTP_URL: mail.smtpUrl }, { clock: clock.now, protocols: [] });
  });
  afterAll(async () => {
    await test?.close();
    await mail?.close();
  });

  const change = (cookie: string, body: object, headers: Record<string, string> = {}) =>
    postJson(test.app, "/api/account/password", body, { headers: { cookie, ...headers } });
  const codeOf = (response: { json(): unknown }) => (response.json() as ErrorBody).code;
  const signedIn = async (cookie: string) =>
    (await test.app.inject({ url: "/api/user", headers: { cookie } })).statusCode === 200;
  const canSignIn = async (username: string, password: string) =>
    (await postJson(test.app, "/api/auth", { username, password })).statusCode === 200;

  it("refuses too short, too long, common and self-made passwords with a code each, audited; the password stays", async () => {
    const person = await addPerson(test.app, { username: "t.tkachenko", fullName: "Тарас Ткаченко" }, oldPassword);
    const cookie = await signIn(test.app, "t.tkachenko", oldPassword);
    const cases: [string, string][] = [
      ["short", "password.too_short"],
      ["seven77", "password.too_short"],
      ["x".repeat(129), "password.too_long"],
      ["password1", "password.blocklisted"],
      ["qwerty123", "password.blocklisted"],
      ["iloveyou", "password.blocklisted"],
      ["zzzzzzzzzzzz", "password.blocklisted"],
      ["t.tkachenko2026!", "password.blocklisted"],
      ["Ткаченко1990", "password.blocklisted"],
      ["kpi-politech-2026", "password.blocklisted"],
    ];
    for (const [candidate, code] of cases) {
      const refused = await change(cookie, { currentPassword: oldPassword, newPassword: candidate });
      expect(refused.statusCode, candidate).toBe(400);
      expect(codeOf(refused), candidate).toBe(code);
    }
    expect(await canSignIn("t.tkachenko", oldPassword)).toBe(true);
    const refusals = (await auditRows(test.app, "password_change")).filter((row) => row.user_id === person.id);
    expect(refusals.map((row) => row.reason)).toEqual(cases.map(([, code]) => code));
    expect(refusals.every((row) => row.result === "failure")).toBe(true);
    // Exactly 8 and 64+ characters of anything (spaces, Cyrillic, emoji) are fine: no composition rules.
    expect((await change(cookie, { currentPassword: oldPassword, newPassword: "ґанок 🌻!" })).statusCode).toBe(200);
    const long = "довга фраза ".repeat(6).trim();
    expect([...long].length).toBeGreaterThanOrEqual(64);
    expect((await change(cookie, { currentPassword: "ґанок 🌻!", newPassword: long })).statusCode).toBe(200);
  });

  it("asks for the password once: after a sign-in long ago the current password is the re-check", async () => {
    await addPerson(test.app, { username: "s.stale", fullName: "Соломія Давня" }, oldPassword);
    const cookie = await signIn(test.app, "s.stale", oldPassword);
    clock.advance(test.app.config.reauthMaxAgeSeconds + 60);
    const wrong = await change(cookie, { currentPassword: "not my password", newPassword });
    expect(codeOf(wrong)).toBe("password.current_wrong");
    expect(await canSignIn("s.stale", oldPassword)).toBe(true);
    const changed = await change(cookie, { currentPassword: oldPassword, newPassword });
    expect(changed.statusCode).toBe(200);
    expect(await canSignIn("s.stale", newPassword)).toBe(true);
  });

  it("needs the current password: 400 password.current_wrong, audited", async () => {
    const person = await addPerson(test.app, { username: "w.wrong", fullName: "Віра Хибна" }, oldPassword);
    const cookie = await signIn(test.app, "w.wrong", oldPassword);
    for (const body of [{ currentPassword: "not my password", newPassword }, { newPassword }]) {
      const refused = await change(cookie, body);
      expect(refused.statusCode).toBe(400);
      expect(codeOf(refused)).toBe("password.current_wrong");
    }
    const rows = (await auditRows(test.app, "password_change")).filter((row) => row.user_id === person.id);
    expect(rows).toEqual([
      { result: "failure", reason: "password.current_wrong", user_id: person.id },
      { result: "failure", reason: "password.current_wrong", user_id: person.id },
    ]);
    expect(await canSignIn("w.wrong", newPassword)).toBe(false);
  });

  it("changes it: the old one is refused, every other session ends, this one stays, audited, and a mail in Ukrainian says so", async () => {
    const person = await addPersonWithVerifiedEmail(
      test.app,
      { username: "o.owner", fullName: "Олена Власна", email: "olena.vlasna@kpi.ua" },
      oldPassword,
    );
    const laptop = await signIn(test.app, "o.owner", oldPassword);
    const phone = await signIn(test.app, "o.owner", oldPassword, { "user-agent": firefox });
    const before = mail.inbox.messages.length;
    const changed = await change(phone, { currentPassword: oldPassword, newPassword }, { "user-agent": firefox });
    expect(changed.statusCode).toBe(200);
    expect((changed.json() as PasswordChanged).endedSessions).toBe(1);
    expect(await signedIn(phone)).toBe(true);
    expect(await signedIn(laptop)).toBe(false);
    expect(await canSignIn("o.owner", oldPassword)).toBe(false);
    expect(await canSignIn("o.owner", newPassword)).toBe(true);
    expect((await auditRows(test.app, "password_change")).filter((row) => row.user_id === person.id)).toEqual([
      { result: "success", reason: "changed", user_id: person.id },
    ]);
    const notice = await mail.inbox.waitFor(
      (message) => message.to.includes("olena.vlasna@kpi.ua") && message.subject === "Пароль KPI ID змінено",
      before,
    );
    expect(notice.text).toContain("Firefox 128, Android 14");
    expect(notice.html).toContain('<html lang="uk">');
    expect(notice.html).toContain("Усі інші сеанси завершено.");
  });

  it("a person without a password sets one without a current one; told in English that a sign-in method was added", async () => {
    const person = await addPersonWithVerifiedEmail(
      test.app,
      { username: "g.google", fullName: "Galyna Google", email: "galyna@kpi.ua" },
      oldPassword,
    );
    await test.app.db.updateTable("users").set({ password_hash: null }).where("id", "=", person.id).execute();
    const cookie = await googleSessionCookie(test.app, person.id);
    const status = await test.app.inject({ url: "/api/account/password", headers: { cookie } });
    expect((status.json() as PasswordStatus).hasPassword).toBe(false);
    const before = mail.inbox.messages.length;
    const set = await change(cookie, { newPassword }, { "accept-language": "en" });
    expect(set.statusCode).toBe(200);
    expect(await canSignIn("g.google", newPassword)).toBe(true);
    const notice = await mail.inbox.waitFor((message) => message.to.includes("galyna@kpi.ua"), before);
    expect(notice.subject).toBe("Sign-in method added: password");
    expect(notice.text).toContain("A sign-in method was added to your KPI ID account: password.");
  });

  it("setting a first password has no current one to check, so it needs a recent sign-in: 403 auth.reauth_required", async () => {
    const person = await addPerson(test.app, { username: "d.diia", fullName: "Дарина Дія" }, oldPassword);
    await test.app.db.updateTable("users").set({ password_hash: null }).where("id", "=", person.id).execute();
    const cookie = await googleSessionCookie(test.app, person.id);
    clock.advance(test.app.config.reauthMaxAgeSeconds + 60);
    const refused = await change(cookie, { newPassword });
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe("auth.reauth_required");
    expect(await canSignIn("d.diia", newPassword)).toBe(false);
  });
});

/** A session cookie for a person, made the way a Google sign-in makes it (no password needed). */
async function googleSessionCookie(app: FastifyInstance, userId: string): Promise<string> {
  const { token } = await createSession(app.db, { userId, authMethod: "GOOGLE" }, app.config.sessions, app.clock());
  return `${sessionCookieName(app.config)}=${token}`;
}
