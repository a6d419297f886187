import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { manualClock, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addPersonWithVerifiedEmail, startTestMail } from "../../support/mail.ts";
import { addAuthenticator } from "../../support/mfa.ts";

const password = "a passphrase for the reset";

// An operator's reset follows a lost (perhaps stolen) phone: what the old factor opened must end with it.
describe.each(aboveModelDatabases)("an operator's second-factor reset (%s)", (kind) => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  const clock = manualClock();
  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp(kind, { SMTP_URL: mail.smtpUrl }, { clock: clock.now, protocols: [] });
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const reset = (username: string) =>
    runCliOn(t.database.handle, ["user", "reset-mfa", "--username", username, "--json"], {
      env: { SMTP_URL: mail.smtpUrl, SUPPORT_EMAIL: "help@kpi.example" },
    });
  const signedIn = async (cookie: string) =>
    (await t.app.inject({ url: "/user", headers: { cookie } })).statusCode === 200;
  // The reset's message to that address (a sign-in from a new browser is mailed too).
  const resetMailTo = (address: string, after: number) =>
    mail.inbox.waitFor((message) => message.to.includes(address) && /factor|фактор/.test(message.subject), after);
  const auditOf = async (userId: string) =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select(["event_type", "reason"])
        .where("user_id", "=", userId)
        .where("event_type", "in", ["second_factor_changed", "session_end"])
        .orderBy("id")
        .execute()
    ).map((row) => `${row.event_type}:${row.reason}`);

  it("ends every session of the person and unexchanged grants, audited beside the reset", async () => {
    const person = await addPersonWithVerifiedEmail(
      t.app,
      { username: "stolen-phone", fullName: "Вкрадений Телефон", email: "stolen@example.org" },
      password,
    );
    const first = await signIn(t.app, "stolen-phone", password);
    const second = await signIn(t.app, "stolen-phone", password);
    await addAuthenticator(t.app, person, clock.now());
    // A password checked but not yet exchanged for a cookie (the code still owed) must not survive either.
    const pending = await postJson(t.app, "/api/auth", { username: "stolen-phone", password });
    expect(pending.json().secondFactor).toBe("totp");
    expect(await signedIn(first)).toBe(true);

    const run = await reset("stolen-phone");
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ username: "stolen-phone", reset: true, sessionsEnded: 2, notified: true });
    expect(await signedIn(first)).toBe(false);
    expect(await signedIn(second)).toBe(false);
    const grants = await t.app.db
      .selectFrom("login_grants")
      .select("user_id")
      .where("user_id", "=", person.id)
      .execute();
    expect(grants).toEqual([]);
    expect(await auditOf(person.id)).toEqual([
      "second_factor_changed:operator.reset",
      "session_end:operator.reset_mfa",
    ]);
  });

  it("mails the person in the language of their last sign-in, Ukrainian when they never signed in", async () => {
    await addPersonWithVerifiedEmail(
      t.app,
      { username: "english-reader", fullName: "English Reader", email: "english@example.org" },
      password,
    );
    await signIn(t.app, "english-reader", password, { "accept-language": "en-GB,en;q=0.9" });
    const before = mail.inbox.messages.length;
    expect((await reset("english-reader")).code).toBe(0);
    const english = await resetMailTo("english@example.org", before);
    expect(english.subject).toBe("Your KPI ID second factor was reset");
    expect(english.text).toContain("write to help@kpi.example at once");

    await addPersonWithVerifiedEmail(
      t.app,
      { username: "never-came", fullName: "Ще Не Входила", email: "never@example.org" },
      password,
    );
    const later = mail.inbox.messages.length;
    expect((await reset("never-came")).code).toBe(0);
    const ukrainian = await resetMailTo("never@example.org", later);
    expect(ukrainian.subject).toBe("Другий фактор KPI ID скинуто");

    // A later sign-in in Ukrainian (the i18next cookie the web app sets) changes the language again.
    await signIn(t.app, "english-reader", password, { cookie: "i18next=uk", "accept-language": "en" });
    const again = mail.inbox.messages.length;
    expect((await reset("english-reader")).code).toBe(0);
    const back = await resetMailTo("english@example.org", again);
    expect(back.subject).toBe("Другий фактор KPI ID скинуто");
  });
});
