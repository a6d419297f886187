import { developerApplicationSchema, developerCredentialsSchema, integrationHealthSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { sessionCookieOf } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { addStudent, registerApplication } from "../../support/developers.ts";
import { openAgreeing } from "../../support/ticket-consent.ts";

const hour = 3_600_000;

/** The developers' page as a console (issue 60): two secrets at once, signing everyone out, deleting. */
describe.each(databaseKinds)("the developers' console actions (%s)", (kind) => {
  let t: TestApp;
  let now = new Date("2026-11-27T08:00:00Z");
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"], clock: () => now });
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const ticketFor = async (cookie: string, appId: string) =>
    new URL((await openAgreeing(t.app, cookie, { appId })).location).searchParams.get("ticketId") ?? "";
  const redeem = (appId: string, appSecret: string, ticketId: string) =>
    t.app.inject({ url: `/api/ticket?${new URLSearchParams({ ticketId, appId, appSecret })}` });
  /** Moves the clock on; the person signs in again (a session idles out after two hours). */
  const later = async (hours: number, person: { person: { id: string }; cookie: string }) => {
    now = new Date(now.getTime() + hours * hour);
    person.cookie = await sessionCookieOf(t.app, person.person.id, "PASSWORD");
  };
  const signedIn = async () => {
    const owner = await addStudent(t.app, "owner");
    const created = await registerApplication(t.app, owner.cookie, {
      title: "Бібліотека",
      titleEn: "Library",
      callbackUrls: ["https://library.example.edu/callback"],
    });
    return { owner, ...created, url: `/api/developers/applications/${created.application.id}` };
  };

  it("keeps the replaced secret working for the chosen overlap, shows when each was last used, then ends it", async () => {
    const { owner, application, secret: first, url } = await signedIn();
    expect((await redeem(application.id, first, await ticketFor(owner.cookie, application.id))).statusCode).toBe(200);
    const replaced = developerCredentialsSchema.parse(
      (await post(`${url}/secret`, { overlapHours: 24 }, owner.cookie)).json(),
    );
    const second = replaced.secret;
    expect(second).not.toBe(first);
    expect(replaced.application.secrets).toEqual([
      expect.objectContaining({ which: "current", lastUsedAt: null, endsAt: null }),
      expect.objectContaining({
        which: "previous",
        lastUsedAt: now.toISOString(),
        endsAt: new Date(now.getTime() + 24 * hour).toISOString(),
      }),
    ]);
    // During the overlap both secrets redeem tickets; the new one's use shows on the page.
    await later(2, owner);
    expect((await redeem(application.id, first, await ticketFor(owner.cookie, application.id))).statusCode).toBe(200);
    expect((await redeem(application.id, second, await ticketFor(owner.cookie, application.id))).statusCode).toBe(200);
    const during = developerApplicationSchema.parse((await get(url, owner.cookie)).json());
    expect(during.secrets.map((secret) => [secret.which, secret.lastUsedAt])).toEqual([
      ["current", now.toISOString()],
      ["previous", now.toISOString()],
    ]);
    // After the overlap only the new one works, and the page lists only it.
    await later(23, owner);
    expect((await redeem(application.id, first, await ticketFor(owner.cookie, application.id))).statusCode).toBe(401);
    expect((await redeem(application.id, second, await ticketFor(owner.cookie, application.id))).statusCode).toBe(200);
    const after = developerApplicationSchema.parse((await get(url, owner.cookie)).json());
    expect(after.secrets.map((secret) => secret.which)).toEqual(["current"]);
    const health = integrationHealthSchema.parse((await get(`${url}/health`, owner.cookie)).json());
    expect(health.failures.map((failure) => failure.reason)).toEqual(["wrong_secret"]);
  });

  it("replaces at once without an overlap, ends an overlap early, and caps it at 7 days", async () => {
    const { owner, application, secret: first, url } = await signedIn();
    const tooLong = await post(`${url}/secret`, { overlapHours: 169 }, owner.cookie);
    expect(tooLong.statusCode).toBe(400);
    const atOnce = developerCredentialsSchema.parse((await post(`${url}/secret`, {}, owner.cookie)).json());
    expect((await redeem(application.id, first, await ticketFor(owner.cookie, application.id))).statusCode).toBe(401);
    const overlapping = developerCredentialsSchema.parse(
      (await post(`${url}/secret`, { overlapHours: 168 }, owner.cookie)).json(),
    );
    expect(overlapping.application.secrets).toHaveLength(2);
    const ended = developerApplicationSchema.parse((await post(`${url}/secret/end-previous`, {}, owner.cookie)).json());
    expect(ended.secrets.map((secret) => secret.which)).toEqual(["current"]);
    const ticket = await ticketFor(owner.cookie, application.id);
    expect((await redeem(application.id, atOnce.secret, ticket)).statusCode).toBe(401);
    const events = await t.app.db
      .selectFrom("audit_events")
      .select("event_type")
      .where("application_id", "=", application.id)
      .where("event_type", "like", "application_secret%")
      .orderBy("audit_events.id")
      .execute();
    expect(events.map((event) => event.event_type)).toEqual([
      "application_secret_rotated",
      "application_secret_rotated",
      "application_secret_ended",
    ]);
  });

  it("signs everyone out: unredeemed tickets and consents end, the application stays", async () => {
    const { owner, application, secret, url } = await signedIn();
    const classmate = await addStudent(t.app, "reader");
    await t.app.db
      .insertInto("application_testers")
      .values({ application_id: application.id, user_id: classmate.person.id })
      .execute();
    const waiting = await ticketFor(classmate.cookie, application.id);
    const answer = await post(`${url}/sign-everyone-out`, {}, owner.cookie);
    expect(answer.json()).toMatchObject({ ok: true, ended: expect.any(Number) });
    expect((await redeem(application.id, secret, waiting)).statusCode).toBe(401);
    // Asked again: the consent they gave ended with the sign-out.
    expect((await openAgreeing(t.app, classmate.cookie, { appId: application.id })).asked).toBe(true);
    expect((await get(url, owner.cookie)).statusCode).toBe(200);
  });

  it("deletes an application only with its name typed, ends its tickets and audits it", async () => {
    const { owner, application, secret, url } = await signedIn();
    const other = await addStudent(t.app, "stranger");
    const waiting = await ticketFor(owner.cookie, application.id);
    expect((await post(`${url}/delete`, { confirm: "Library" }, other.cookie)).statusCode).toBe(404);
    const mistyped = await post(`${url}/delete`, { confirm: "Librar" }, owner.cookie);
    expect(mistyped.json()).toMatchObject({ code: "developer.confirmation_mismatch" });
    expect((await post(`${url}/delete`, { confirm: "Library" }, owner.cookie)).json()).toMatchObject({ ok: true });
    expect((await get(url, owner.cookie)).statusCode).toBe(404);
    expect((await redeem(application.id, secret, waiting)).statusCode).toBe(401);
    const tickets = await t.app.db
      .selectFrom("tickets")
      .select("id")
      .where("application_id", "=", application.id)
      .execute();
    expect(tickets).toEqual([]);
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select(["details", "user_id"])
      .where("event_type", "=", "application_deleted")
      .orderBy("audit_events.id")
      .execute();
    expect(audited).toEqual([
      expect.objectContaining({
        user_id: owner.person.id,
        details: expect.objectContaining({ applicationId: application.id, title: "Бібліотека" }),
      }),
    ]);
  });

  it("says whether the operators' answer can be mailed to the owner (a confirmed address)", async () => {
    const { owner, url } = await signedIn();
    await t.app.db.updateTable("users").set({ verified_email: null }).where("id", "=", owner.person.id).execute();
    expect(developerApplicationSchema.parse((await get(url, owner.cookie)).json()).mailReachable).toBe(false);
    await t.app.db
      .updateTable("users")
      .set({ verified_email: `${owner.username}@kpi.ua` })
      .where("id", "=", owner.person.id)
      .execute();
    expect(developerApplicationSchema.parse((await get(url, owner.cookie)).json()).mailReachable).toBe(true);
  });

  it("needs a recent sign-in to replace a secret, sign everyone out or delete", async () => {
    const { owner, url } = await signedIn();
    // Signed in an hour ago: still signed in, no longer recently.
    now = new Date(now.getTime() + hour);
    for (const [tail, body] of [
      ["/secret", {}],
      ["/sign-everyone-out", {}],
      ["/delete", { confirm: "Library" }],
    ] as const) {
      const answer = await post(`${url}${tail}`, body, owner.cookie);
      expect(answer.json(), tail).toMatchObject({ code: "auth.reauth_required" });
    }
  });
});
