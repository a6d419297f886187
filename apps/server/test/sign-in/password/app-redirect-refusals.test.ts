import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

// Where /api/app-redirect sends a browser it cannot hand a ticket: the sign-in page, the apps page, never anywhere
// the appId names (moved from signin-loop.test.ts, whose loop these do not take part in).
const student = { username: "o.kovalenko", fullName: "Олена Коваленко" };
const password = "a long passphrase, no rules";

describe.each(aboveModelDatabases)("the app redirect's refusals on %s", (kind) => {
  let t: TestApp;
  let appA: Awaited<ReturnType<typeof addApplication>>;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"] });
    const person = await addPerson(t.app, student, password);
    appA = await addApplication(t.app, "https://a.example.edu/login/callback?from=kpi");
    await grantAccess(t.app.db, person.id, appA.application.id);
  });
  afterAll(() => t.close());

  const openApp = (cookie: string, appId: string) =>
    t.app.inject({ url: `/api/app-redirect?appId=${appId}`, headers: { cookie } });

  it("redirects a visitor without a session to sign-in and an unknown app to the apps page, in their language", async () => {
    const cookie = await signIn(t.app, student.username, password);
    const anonymous = await t.app.inject({ url: `/api/app-redirect?appId=${appA.application.id}` });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe(`/uk/?appId=${appA.application.id}`);
    const english = await t.app.inject({
      url: `/api/app-redirect?appId=${appA.application.id}`,
      headers: { "accept-language": "en-US,en;q=0.8" },
    });
    expect(english.headers.location).toBe(`/en/?appId=${appA.application.id}`);

    const unknown = await t.app.inject({
      url: "/api/app-redirect?appId=no-such-app",
      headers: { cookie: `${cookie}; i18next=en-US`, "accept-language": "uk" },
    });
    expect(unknown.headers.location).toBe("/en/apps?appId=no-such-app");

    const withoutAccess = await addApplication(t.app);
    const denied = await openApp(cookie, withoutAccess.application.id);
    expect(denied.headers.location).toBe(`/uk/apps?appId=${withoutAccess.application.id}`);
  });

  it("never lets appId reach a header or leave the site", async () => {
    const cookie = await signIn(t.app, student.username, password);
    const injected = await t.app.inject({
      url: "/api/app-redirect?appId=%0d%0aSet-Cookie:%20evil=1&x=//evil.example",
      headers: { cookie },
    });
    expect(injected.statusCode).toBe(302);
    expect(injected.headers.location).toBe("/uk/apps?appId=%0D%0ASet-Cookie%3A+evil%3D1");
    expect(injected.headers["set-cookie"]).toBeUndefined();
    const offsite = await t.app.inject({ url: "/api/app-redirect?appId=//evil.example/x", headers: { cookie } });
    expect(offsite.headers.location).toBe("/uk/apps?appId=%2F%2Fevil.example%2Fx");
    const repeated = await t.app.inject({ url: "/api/app-redirect?appId=a&appId=b", headers: { cookie } });
    expect(repeated.headers.location).toBe("/uk/apps");
  });
});
