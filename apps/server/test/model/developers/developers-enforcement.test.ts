import { integrationHealthSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { addMember, addStudent, decideQueued, registerApplication } from "../../support/developers.ts";
import { openAgreeing } from "../../support/ticket-consent.ts";

/** Who may sign in to an application from the developers' page, by its state (issue 39), over tickets. */
describe.each(databaseKinds)("testing, review and suspension of a developer's application (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"] });
  });
  afterAll(() => t.close());

  // A person who agrees on the consent screen a community application shows the first time (issue 56).
  const open = async (cookie: string, appId: string) => {
    const { location } = await openAgreeing(t.app, cookie, { appId });
    return { headers: { location } };
  };
  const redeem = (appId: string, appSecret: string, ticketId: string) =>
    t.app.inject({ url: `/api/ticket?${new URLSearchParams({ ticketId, appId, appSecret })}` });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  const ticketOf = (location: unknown) => new URL(String(location)).searchParams.get("ticketId") ?? "";

  it("lets only owners and testers in while testing; then everyone the rules allow once approved", async () => {
    const owner = await addStudent(t.app, "owner");
    const tester = await addStudent(t.app, "tester");
    const classmate = await addStudent(t.app, "classmate");
    const { application, secret } = await registerApplication(t.app, owner.cookie, {
      title: "Голосування",
      titleEn: "Voting",
      callbackUrls: ["https://vote.example.edu/callback"],
    });
    const url = `/api/developers/applications/${application.id}`;
    await addMember(t.app, application.id, "tester", owner, tester);

    for (const person of [owner, tester]) {
      const redirect = await open(person.cookie, application.id);
      expect(String(redirect.headers.location)).toMatch(/^https:\/\/vote\.example\.edu\/callback\?ticketId=/);
      expect((await redeem(application.id, secret, ticketOf(redirect.headers.location))).statusCode).toBe(200);
    }
    const refused = await open(classmate.cookie, application.id);
    expect(refused.headers.location).toBe(`/uk/apps?appId=${application.id}&refused=testing`);

    await post(`${url}/review`, { purpose: "Голосування старост", dataNeeded: "Ім'я для бюлетеня" }, owner.cookie);
    expect((await open(classmate.cookie, application.id)).headers.location).toContain("refused=testing");
    const admin = await addOperator(t.app, ["admin"]);
    await decideQueued(t.app, admin.cookie, application.id, { decision: "approved" });
    const welcomed = await open(classmate.cookie, application.id);
    expect(String(welcomed.headers.location)).toMatch(/^https:\/\/vote\.example\.edu\/callback\?ticketId=/);
  });

  it("stops a suspended application's sign-ins and ticket exchanges at once, and resumes them", async () => {
    const owner = await addStudent(t.app, "owner");
    const { application, secret } = await registerApplication(t.app, owner.cookie, {
      title: "Бот",
      titleEn: "Bot",
      callbackUrls: ["https://bot.example.edu/callback"],
    });
    const issued = await open(owner.cookie, application.id);
    const admin = await addOperator(t.app, ["admin"]);
    const suspension = `/api/admin/applications/${application.id}/suspension`;
    await post(suspension, { suspended: true, reason: "Розсилав спам" }, admin.cookie);
    // A ticket issued a moment before does not work either.
    expect((await redeem(application.id, secret, ticketOf(issued.headers.location))).statusCode).toBe(401);
    expect((await open(owner.cookie, application.id)).headers.location).toBe(`/uk/apps?appId=${application.id}`);
    const detail = await t.app.inject({
      url: `/api/developers/applications/${application.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(detail.json()).toMatchObject({ suspended: true });
    // The console's application screen knows it too (its Suspend/Resume control).
    const consoleDetail = async () =>
      (
        await t.app.inject({ url: `/api/admin/applications/${application.id}`, headers: { cookie: admin.cookie } })
      ).json();
    expect(await consoleDetail()).toMatchObject({ suspended: true });
    await post(suspension, { suspended: false }, admin.cookie);
    expect(await consoleDetail()).toMatchObject({ suspended: false, lifecycle: "testing" });
    expect(String((await open(owner.cookie, application.id)).headers.location)).toContain("ticketId=");
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select("event_type")
      .where("application_id", "=", application.id)
      .where("event_type", "like", "application_%")
      .orderBy("audit_events.id")
      .execute();
    expect(audited.map((row) => row.event_type)).toEqual(
      expect.arrayContaining(["application_suspended", "application_unsuspended"]),
    );
  });

  it("tells the owners what their integration got wrong, without saying who", async () => {
    const owner = await addStudent(t.app, "owner");
    const classmate = await addStudent(t.app, "classmate");
    const { application, secret } = await registerApplication(t.app, owner.cookie, {
      title: "Розклад",
      titleEn: "Timetable",
      callbackUrls: ["https://timetable.example.edu/callback"],
    });
    const redirect = await open(owner.cookie, application.id);
    const ticket = ticketOf(redirect.headers.location);
    expect((await redeem(application.id, "not the secret", ticket)).statusCode).toBe(401);
    expect((await redeem(application.id, secret, ticket)).statusCode).toBe(200);
    expect((await redeem(application.id, secret, ticket)).statusCode).toBe(401);
    await open(classmate.cookie, application.id);
    const unregistered = new URLSearchParams({ appId: application.id, redirectUri: "https://evil.example/cb" });
    await t.app.inject({ url: `/api/app-redirect?${unregistered}`, headers: { cookie: owner.cookie } });
    const answer = await t.app.inject({
      url: `/api/developers/applications/${application.id}/health`,
      headers: { cookie: owner.cookie },
    });
    const health = integrationHealthSchema.parse(answer.json());
    expect(health.failures.map((failure) => failure.reason)).toEqual([
      "redirect_uri_not_registered",
      "in_testing",
      "ticket_invalid",
      "wrong_secret",
    ]);
    expect(health.signInsPerDay.at(-1)?.signIns).toBe(1);
    expect(answer.body).not.toContain(classmate.username);
    expect(answer.body).not.toContain(classmate.person.id);
  });
});
