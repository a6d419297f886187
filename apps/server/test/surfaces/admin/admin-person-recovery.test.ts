import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addPersonWithVerifiedEmail, resetLinkIn, startTestMail } from "../../support/mail.ts";
import { addAuthenticator } from "../../support/mfa.ts";

const password = "a passphrase for the console";

// The person screen's recovery tools, used by helpdesk: the same services as `user reset-mfa` and "Forgot password?".
describe.each(aboveModelDatabases)("helpdesk's recovery tools on the person screen (%s)", (kind) => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  let helpdesk: Awaited<ReturnType<typeof addOperator>>;
  const clock = manualClock();
  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp(kind, { SMTP_URL: mail.smtpUrl }, { clock: clock.now, protocols: [] });
    helpdesk = await addOperator(t.app, ["helpdesk"]);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const post = (path: string) =>
    t.app.inject({
      method: "POST",
      url: path,
      headers: { cookie: helpdesk.cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: "{}",
    });
  const detail = async (id: string) =>
    (await t.app.inject({ url: `/api/admin/people/${id}`, headers: { cookie: helpdesk.cookie } })).json();

  it("resets the second factor: the app goes, the person's sessions end, they are told, the operator is audited", async () => {
    const person = await addPersonWithVerifiedEmail(
      t.app,
      { username: "lost.phone", fullName: "Загублений Телефон", email: "lost@example.org" },
      password,
    );
    const cookie = await signIn(t.app, "lost.phone", password);
    await addAuthenticator(t.app, person, clock.now());
    expect((await detail(person.id)).secondFactor).toEqual({ authenticator: true, passkeys: 0 });
    const before = mail.inbox.messages.length;

    const answer = await post(`/api/admin/people/${person.id}/second-factor/reset`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ done: true, count: 1 });
    expect((await detail(person.id)).secondFactor).toEqual({ authenticator: false, passkeys: 0 });
    expect((await t.app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(401);
    const notice = await mail.inbox.waitFor(
      (message) => message.to.includes("lost@example.org") && /фактор/.test(message.subject),
      before,
    );
    expect(notice.subject).toContain("скинуто");
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "reason", "actor_id"])
      .where("user_id", "=", person.id)
      .where("event_type", "in", ["second_factor_changed", "session_end"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { event_type: "second_factor_changed", reason: "operator.reset", actor_id: helpdesk.person.id },
      { event_type: "session_end", reason: "operator.reset_mfa", actor_id: helpdesk.person.id },
    ]);
  });

  it("sends the Forgot-password link to the confirmed address, in the person's language, audited", async () => {
    const person = await addPersonWithVerifiedEmail(
      t.app,
      { username: "forgot.it", fullName: "Забув Пароль", email: "forgot@example.org" },
      password,
    );
    await t.app.db.updateTable("users").set({ language: "en" }).where("id", "=", person.id).execute();
    const before = mail.inbox.messages.length;
    const answer = await post(`/api/admin/people/${person.id}/recovery-mail`);
    expect(answer.statusCode, answer.body).toBe(200);
    const message = await mail.inbox.waitFor((sent) => sent.to.includes("forgot@example.org"), before);
    expect(resetLinkIn(message.text).url).toContain("/en/reset-password#token=");
    const row = await t.app.db
      .selectFrom("audit_events")
      .select(["reason", "actor_id"])
      .where("user_id", "=", person.id)
      .where("event_type", "=", "password_reset_request")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ reason: "operator", actor_id: helpdesk.person.id });
  });

  it("says so when the person has no confirmed address, and sends nothing", async () => {
    const person = await addPerson(
      t.app,
      { username: "no.address", fullName: "Без Адреси", email: "typo@example.org" },
      password,
    );
    const before = mail.inbox.messages.length;
    const answer = await post(`/api/admin/people/${person.id}/recovery-mail`);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().code).toBe("admin.no_verified_address");
    expect((await detail(person.id)).emailVerified).toBe(false);
    expect(mail.inbox.messages.length).toBe(before);
  });
});
