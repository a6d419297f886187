import { integrationHealthSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { developerSignIns } from "../../support/developer-oidc.ts";
import { addStudent, registerApplication } from "../../support/developers.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { client, discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://vote.example.edu/oidc";

/** A developer's application over OpenID Connect (issue 39): testing mode, the consent mark, suspension. */
describe.each(databaseKinds)("a developer's OpenID Connect client (%s)", (kind) => {
  let t: TestApp;
  let origin: string;
  let issuer: string;
  beforeAll(async () => {
    ({ test: t, origin } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    issuer = `${origin}/oidc`;
  });
  afterAll(() => t.close());

  const { post, signInAs, allow } = developerSignIns(() => origin, redirectUri);

  it("signs owners in with the 'not reviewed' mark, shows others the testing page, and stops on suspension", async () => {
    const owner = await addStudent(t.app, "owner");
    const classmate = await addStudent(t.app, "classmate");
    const { application, secret } = await registerApplication(
      t.app,
      owner.cookie,
      {
        title: "Голосування",
        titleEn: "Voting",
        redirectUris: [redirectUri],
        scopes: ["openid", "profile", "offline_access"],
      },
      origin,
    );
    const config = await discover(issuer, application.id, secret);

    const ownerSignIn = await signInAs(owner.cookie, config);
    expect(ownerSignIn.details).toMatchObject({ access: true, reviewed: false, inTesting: false });
    const tokens = await allow(ownerSignIn, config);
    expect(tokens.refresh_token).toBeTruthy();

    const refused = await signInAs(classmate.cookie, config);
    expect(refused.details).toMatchObject({ access: false, reviewed: false, inTesting: true });

    const admin = await addOperator(t.app, ["admin"]);
    const adminBrowser = new TestBrowser(origin);
    adminBrowser.setCookie(admin.cookie);
    const suspended = await post(adminBrowser, `/api/admin/applications/${application.id}/suspension`, {
      suspended: true,
      reason: "Перевірка",
    });
    expect(suspended.status).toBe(200);
    // Refresh and a new authorization both end at once: the client is not found any more.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toThrow();
    const authorize = await new TestBrowser(origin).request(
      (await startSignIn(config, redirectUri, "openid")).url.href,
    );
    expect(authorize.status).toBe(400);
    const failures = await t.app.db
      .selectFrom("integration_failures")
      .select("reason")
      .where("application_id", "=", application.id)
      .execute();
    expect(failures.map((row) => row.reason)).toEqual(expect.arrayContaining(["in_testing", "suspended"]));
  });

  it("notes a wrong secret and an unregistered redirect URI for the owners", async () => {
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(
      t.app,
      owner.cookie,
      {
        title: "Бот",
        titleEn: "Bot",
        redirectUris: [redirectUri],
      },
      origin,
    );
    const wrong = await discover(issuer, application.id, "not-the-secret");
    await expect(client.refreshTokenGrant(wrong, "whatever")).rejects.toThrow();
    const elsewhere = await startSignIn(wrong, "https://evil.example/cb", "openid");
    expect((await new TestBrowser(origin).request(elsewhere.url.href)).status).toBe(400);
    // A confidential client at the token endpoint with no secret at all (issue 60): refused, and noted too.
    const noSecret = await fetch(`${issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: "whatever",
        redirect_uri: redirectUri,
        client_id: application.id,
      }),
    });
    expect(noSecret.status).toBe(401);
    expect((await noSecret.json()).error).toBe("invalid_client");
    const failures = await t.app.db
      .selectFrom("integration_failures")
      .select(["reason", "address"])
      .where("application_id", "=", application.id)
      .orderBy("id")
      .execute();
    expect(failures).toEqual([
      { reason: "wrong_secret", address: "" },
      // The address the integration tried is kept (issue 60), so the owner sees which one to register.
      { reason: "redirect_uri_not_registered", address: "https://evil.example/cb" },
      { reason: "invalid_client", address: "" },
    ]);
    // And the owners' integration health shows it, newest first.
    const health = integrationHealthSchema.parse(
      (
        await t.app.inject({
          url: `/api/developers/applications/${application.id}/health`,
          headers: { cookie: owner.cookie },
        })
      ).json(),
    );
    expect(health.failures.map(({ protocol, reason, address }) => ({ protocol, reason, address }))).toEqual([
      { protocol: "oidc", reason: "invalid_client", address: "" },
      { protocol: "oidc", reason: "redirect_uri_not_registered", address: "https://evil.example/cb" },
      { protocol: "oidc", reason: "wrong_secret", address: "" },
    ]);
  });

  it("accepts only the approved redirect URI while a new one waits for the operators (issue 56)", async () => {
    const owner = await addStudent(t.app, "owner");
    const { application, secret } = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Бот", titleEn: "Bot", redirectUris: [redirectUri] },
      origin,
    );
    const send = (path: string, body: unknown, cookie: string) =>
      t.app.inject({ method: "POST", url: path, payload: body as object, headers: { cookie, origin } });
    const url = `/api/developers/applications/${application.id}`;
    await send(`${url}/review`, { purpose: "Бот розкладу занять", dataNeeded: "Ім'я для привітання" }, owner.cookie);
    const admin = await addOperator(t.app, ["admin"]);
    const queue = (await t.app.inject({ url: "/api/admin/reviews", headers: { cookie: admin.cookie } })).json();
    const { requestId } = queue.reviews.find(
      (each: { applicationId: string }) => each.applicationId === application.id,
    );
    const approved = await send(
      `/api/admin/reviews/${application.id}`,
      { decision: "approved", requestId },
      admin.cookie,
    );
    expect(approved.statusCode).toBe(200);
    const asked = await send(url, { redirectUris: ["https://evil.example/cb"] }, owner.cookie);
    expect(asked.json()).toMatchObject({ redirectUris: [redirectUri], pendingChange: { status: "pending" } });
    const config = await discover(issuer, application.id, secret);
    const elsewhere = await startSignIn(config, "https://evil.example/cb", "openid");
    expect((await new TestBrowser(origin).request(elsewhere.url.href)).status).toBe(400);
    const approvedOne = await startSignIn(config, redirectUri, "openid");
    const toLogin = await new TestBrowser(origin).request(approvedOne.url.href);
    expect(toLogin.status).toBeGreaterThanOrEqual(300);
    expect(toLogin.status).toBeLessThan(400);
  });
});
