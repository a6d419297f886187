import type { ErrorBody, ResetCheck, ResetToken } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { issueLoginGrant } from "../../../src/model/sessions/grants.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addPersonWithVerifiedEmail, resetLinkIn, startTestMail } from "../../support/mail.ts";

const oldPassword = "a walk along the dnipro";
const newPassword = "lanterns over podil at dusk";

/** Issue 16: "Forgot password?" by e-mail (one-time link) and by Diia. */
describe.each(aboveModelDatabases)("getting back in (%s)", (kind) => {
  let test: TestApp;
  let mail: RunningMailStandIn;
  const clock = manualClock();
  let addressCount = 0;
  /** Each request from its own address, so the per-address throttle is tested only where meant. */
  const freshAddress = () => {
    addressCount += 1;
    return `10.16.${Math.floor(addressCount / 250)}.${addressCount % 250}`;
  };

  beforeAll(async () => {
    mail = await startTestMail();
    test = await createTestApp(
      kind,
      { SMTP_URL: mail.smtpUrl, TRUST_PROXY: "true" },
      { protocols: [], clock: clock.now },
    );
  });
  afterAll(async () => {
    await test?.close();
    await mail?.close();
  });

  const askByEmail = (email: string, extra: object = {}, address = freshAddress()) =>
    postJson(test.app, "/api/recovery/email", { email, ...extra }, { headers: { "x-forwarded-for": address } });
  const reset = (token: string, password = newPassword) =>
    postJson(test.app, "/api/recovery/reset", { token, newPassword: password });
  const codeOf = (response: { json(): unknown }) => (response.json() as ErrorBody).code;
  const canSignIn = async (username: string, password: string) =>
    (await postJson(test.app, "/api/auth", { username, password })).statusCode === 200;

  /** Asks for a link for this address and reads it from the stand-in's inbox. */
  async function linkFor(email: string, extra: object = {}) {
    const before = mail.inbox.messages.length;
    expect((await askByEmail(email, extra)).statusCode).toBe(200);
    const message = await mail.inbox.waitFor((each) => each.to.includes(email), before);
    return { message, ...resetLinkIn(message.text) };
  }

  it("answers the same for a known, an unknown and an unverified address; only the verified one gets a link", async () => {
    await addPersonWithVerifiedEmail(
      test.app,
      { username: "k.known", fullName: "Катерина Відома", email: "kateryna@kpi.ua" },
      oldPassword,
    );
    await addPerson(
      test.app,
      { username: "u.unverified", fullName: "Юрій Неперевірений", email: "yurii@kpi.ua" },
      oldPassword,
    );
    const before = mail.inbox.messages.length;
    const answers = [];
    const timings: Record<string, number[]> = { known: [], unknown: [], unverified: [] };
    const addresses = { known: "kateryna@kpi.ua", unknown: "nobody@kpi.ua", unverified: "yurii@kpi.ua" };
    // Three rounds each (the per-address allowance); time is reported, never asserted (shared machine).
    for (let round = 0; round < 3; round++) {
      for (const [name, email] of Object.entries(addresses)) {
        const started = performance.now();
        const answer = await askByEmail(email);
        timings[name]?.push(performance.now() - started);
        answers.push({ status: answer.statusCode, body: answer.body, contentType: answer.headers["content-type"] });
      }
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200, body: '{"ok":true}' });
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]?.toFixed(1);
    console.log(
      `recovery timing (ms, median of 3): known ${median(timings.known ?? [])}, unknown ${median(timings.unknown ?? [])}, unverified ${median(timings.unverified ?? [])}`,
    );
    await mail.inbox.waitFor((message) => message.to.includes("kateryna@kpi.ua"), before);
    const sent = mail.inbox.messages.slice(before);
    expect(sent.every((message) => message.to.includes("kateryna@kpi.ua"))).toBe(true);
    const audited = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "reason"])
      .where("event_type", "=", "password_reset_request")
      .orderBy("audit_events.id")
      .execute();
    expect(audited.filter((row) => row.result === "success")).toHaveLength(3);
    expect(audited.filter((row) => row.reason === "recovery.no_verified_address")).toHaveLength(6);
  });

  it("a link works once, in the person's language; the new password signs in, the old one and every session end; audited; told by mail", async () => {
    const person = await addPersonWithVerifiedEmail(
      test.app,
      { username: "o.once", fullName: "Оксана Одноразова", email: "oksana@kpi.ua" },
      oldPassword,
    );
    const session = await signIn(test.app, "o.once", oldPassword);
    const { message, token, url } = await linkFor("oksana@kpi.ua", { language: "en" });
    expect(message.subject).toBe("Reset your KPI ID password");
    expect(url).toBe(`http://localhost:3000/en/reset-password#token=${token}`);
    expect(message.html).toContain(`href="${url}"`);
    const check = await postJson(test.app, "/api/recovery/check", { token });
    expect(check.json() as ResetCheck).toEqual({ username: "o.once", fullName: "Оксана Одноразова" });

    const before = mail.inbox.messages.length;
    expect((await reset(token)).statusCode).toBe(200);
    expect(await canSignIn("o.once", newPassword)).toBe(true);
    expect(await canSignIn("o.once", oldPassword)).toBe(false);
    expect((await test.app.inject({ url: "/api/user", headers: { cookie: session } })).statusCode).toBe(401);
    const again = await reset(token, "another long passphrase here");
    expect(again.statusCode).toBe(400);
    expect(codeOf(again)).toBe("recovery.link_invalid");
    expect(codeOf(await postJson(test.app, "/api/recovery/check", { token }))).toBe("recovery.link_invalid");
    const audited = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "reason"])
      .where("event_type", "=", "password_reset")
      .where("user_id", "=", person.id)
      .orderBy("audit_events.id")
      .execute();
    expect(audited).toEqual([{ result: "success", reason: "email" }]);
    const notice = await mail.inbox.waitFor((each) => each.to.includes("oksana@kpi.ua"), before);
    expect(notice.subject).toBe("Пароль KPI ID змінено");
  });

  it("a refused new password (too short, blocklisted) keeps the link usable, with the code", async () => {
    await addPersonWithVerifiedEmail(
      test.app,
      { username: "p.policy", fullName: "Петро Правило", email: "petro@kpi.ua" },
      oldPassword,
    );
    const { token } = await linkFor("petro@kpi.ua");
    expect(codeOf(await reset(token, "short"))).toBe("password.too_short");
    expect(codeOf(await reset(token, "password123"))).toBe("password.blocklisted");
    expect(codeOf(await reset(token, "petro@2026!"))).toBe("password.blocklisted");
    expect((await reset(token)).statusCode).toBe(200);
  });

  it("a link expires after 30 minutes", async () => {
    await addPersonWithVerifiedEmail(
      test.app,
      { username: "e.expired", fullName: "Євген Прострочений", email: "yevhen@kpi.ua" },
      oldPassword,
    );
    const { token } = await linkFor("yevhen@kpi.ua");
    clock.advance(30 * 60 + 1);
    expect(codeOf(await reset(token))).toBe("recovery.link_invalid");
    expect(await canSignIn("e.expired", oldPassword)).toBe(true);
  });

  it("a newer link replaces an older one", async () => {
    await addPersonWithVerifiedEmail(
      test.app,
      { username: "n.newer", fullName: "Надія Новіша", email: "nadiia@kpi.ua" },
      oldPassword,
    );
    const older = await linkFor("nadiia@kpi.ua");
    const newer = await linkFor("nadiia@kpi.ua");
    expect(newer.token).not.toBe(older.token);
    expect(codeOf(await reset(older.token))).toBe("recovery.link_invalid");
    expect((await reset(newer.token)).statusCode).toBe(200);
  });

  it("is throttled per typed address (429 whether or not it is known) and per asking address", async () => {
    for (const email of ["flooded@kpi.ua", "ghost-flooded@kpi.ua"]) {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await askByEmail(email)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    }
    const oneAddress = freshAddress();
    const statuses = [];
    for (let i = 0; i < 25; i++) statuses.push((await askByEmail(`spray-${i}@kpi.ua`, {}, oneAddress)).statusCode);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 21).every((status) => status === 200)).toBe(true);
  });

  it("with Diia: the grant of a finished Diia sign-in becomes a reset token (once); a password grant does not", async () => {
    const person = await addPerson(test.app, { username: "d.diia", fullName: "Дмитро Дієвий" }, oldPassword);
    const grant = await issueLoginGrant(test.app.db, { userId: person.id, authMethod: "DIIA" }, 60, clock.now());
    const answer = await postJson(test.app, "/api/recovery/diia", { sessionId: grant });
    expect(answer.statusCode).toBe(200);
    const { token } = answer.json() as ResetToken;
    expect(codeOf(await postJson(test.app, "/api/recovery/diia", { sessionId: grant }))).toBe("auth.grant_invalid");
    const passwordGrant = await issueLoginGrant(
      test.app.db,
      { userId: person.id, authMethod: "PASSWORD" },
      60,
      clock.now(),
    );
    expect(codeOf(await postJson(test.app, "/api/recovery/diia", { sessionId: passwordGrant }))).toBe(
      "auth.grant_invalid",
    );
    expect((await reset(token)).statusCode).toBe(200);
    expect(await canSignIn("d.diia", newPassword)).toBe(true);
    const audited = await test.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "reason"])
      .where("user_id", "=", person.id)
      .where("event_type", "in", ["password_reset_request", "password_reset"])
      .orderBy("id")
      .execute();
    expect(audited).toEqual([
      { event_type: "password_reset_request", result: "success", reason: "diia" },
      { event_type: "password_reset", result: "success", reason: "diia" },
    ]);
  });

  it("the first sign-in from a browser never seen for this person is told by mail, even after retention pruned the audit log; the same browser again is not", async () => {
    await addPersonWithVerifiedEmail(
      test.app,
      { username: "b.browser", fullName: "Богдана Браузерна", email: "bohdana@kpi.ua" },
      oldPassword,
    );
    const firstEver = await postJson(test.app, "/api/auth", { username: "b.browser", password: oldPassword });
    const first = await postJson(test.app, "/api/auth/internal", firstEver.json());
    const device = first.cookies.find((cookie) => cookie.name.endsWith("kpi_id_device"));
    expect(device?.httpOnly).toBe(true);
    const before = mail.inbox.messages.length;
    // The same browser again: nothing; then another browser (no device cookie): a mail.
    const again = await postJson(test.app, "/api/auth", { username: "b.browser", password: oldPassword });
    await postJson(test.app, "/api/auth/internal", again.json(), {
      headers: { cookie: `${device?.name}=${device?.value}` },
    });
    // AUDIT_RETENTION_DAYS later, none of the earlier sign-ins is in the audit log any more.
    const person = test.app.db.selectFrom("users").select("id").where("username", "=", "b.browser");
    await test.app.db.deleteFrom("audit_events").where("user_id", "=", person).execute();
    await signIn(test.app, "b.browser", oldPassword, { "accept-language": "en" });
    const notice = await mail.inbox.waitFor((each) => each.to.includes("bohdana@kpi.ua"), before);
    expect(notice.subject).toBe("New sign-in to KPI ID");
    expect(mail.inbox.to("bohdana@kpi.ua")).toHaveLength(1);
  });
});
