import { developerApplicationSchema, developerCredentialsSchema, integrationHealthSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { databaseKinds } from "../../support/databases.ts";
import { developerSignIns } from "../../support/developer-oidc.ts";
import { addStudent, registerApplication } from "../../support/developers.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { discover, startSignIn, TestBrowser } from "../../support/oidc.ts";

const spaRedirect = "http://localhost:5173/callback";

/** The kind of application chosen first on the developers' page (issue 60), as the provider treats each. */
describe.each(databaseKinds)("a developer's application by its kind (%s)", (kind) => {
  let t: TestApp;
  let origin: string;
  let issuer: string;
  beforeAll(async () => {
    ({ test: t, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
  });
  afterAll(() => t.close());

  const { signInAs, allow } = developerSignIns(() => origin, spaRedirect);
  const send = (path: string, body: unknown, cookie: string) =>
    t.app.inject({ method: "POST", url: path, payload: body as object, headers: { cookie, origin } });
  const form = (path: string, fields: Record<string, string>, authorization?: string) =>
    fetch(`${issuer}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(authorization && { authorization }),
      },
      body: new URLSearchParams(fields),
    });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

  it("registers a single-page application as a public client: PKCE, no secret, no ticket callbacks", async () => {
    const owner = await addStudent(t.app, "spa");
    const withCallbacks = await send(
      "/api/developers/applications",
      { title: "Черга", titleEn: "Queue", clientType: "public", callbackUrls: ["https://queue.example.edu/cb"] },
      owner.cookie,
    );
    expect(withCallbacks.json()).toMatchObject({ code: "developer.callbacks_need_secret" });
    const created = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Черга", titleEn: "Queue", clientType: "public", redirectUris: [spaRedirect] },
      origin,
    );
    expect(created.secret).toBe("");
    expect(created.application).toMatchObject({ clientType: "public", deviceFlow: false, secrets: [] });
    const url = `/api/developers/applications/${created.application.id}`;
    expect((await send(`${url}/secret`, {}, owner.cookie)).json()).toMatchObject({ code: "developer.no_secret" });
    // The browser's own code redeems the code with its PKCE verifier and no secret.
    const config = await discover(issuer, created.application.id);
    const tokens = await allow(await signInAs(owner.cookie, config, "openid profile"), config);
    expect(tokens.id_token).toBeTruthy();
  });

  it("registers a command-line tool with device sign-in and no address; the owner turns it off and on", async () => {
    const owner = await addStudent(t.app, "cli");
    const created = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Консоль", titleEn: "Console", clientType: "device" },
      origin,
    );
    expect(created.application).toMatchObject({ clientType: "device", deviceFlow: true, redirectUris: [] });
    const clientId = created.application.id;
    const asked = await form("/device/auth", { client_id: clientId, scope: "openid profile" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({ user_code: expect.any(String) });
    const url = `/api/developers/applications/${clientId}`;
    const off = developerApplicationSchema.parse(
      (await send(`${url}/device-flow`, { enabled: false }, owner.cookie)).json(),
    );
    expect(off.deviceFlow).toBe(false);
    expect((await form("/device/auth", { client_id: clientId, scope: "openid" })).status).toBeGreaterThanOrEqual(400);
    const on = developerApplicationSchema.parse(
      (await send(`${url}/device-flow`, { enabled: true }, owner.cookie)).json(),
    );
    expect(on.deviceFlow).toBe(true);
    expect((await form("/device/auth", { client_id: clientId, scope: "openid" })).status).toBe(200);
  });

  it("lets a web application turn device sign-in on, and notes a wrong secret at the device endpoint", async () => {
    const owner = await addStudent(t.app, "web");
    const { application } = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Сайт", titleEn: "Site", redirectUris: ["https://site.example.edu/cb"] },
      origin,
    );
    const url = `/api/developers/applications/${application.id}`;
    await send(`${url}/device-flow`, { enabled: true }, owner.cookie);
    const wrong = await form("/device/auth", { scope: "openid" }, basic(application.id, "not-the-secret"));
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const health = integrationHealthSchema.parse(
      (await t.app.inject({ url: `${url}/health`, headers: { cookie: owner.cookie } })).json(),
    );
    expect(health.failures.map((failure) => failure.reason)).toEqual(["wrong_secret"]);
  });

  it("accepts the replaced secret at the token endpoint during the overlap, not after it ends", async () => {
    const owner = await addStudent(t.app, "rollover");
    const { application, secret: first } = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Перехід", titleEn: "Rollover", redirectUris: ["https://rollover.example.edu/cb"] },
      origin,
    );
    const url = `/api/developers/applications/${application.id}`;
    const refresh = (secret: string) =>
      form("/token", { grant_type: "refresh_token", refresh_token: "unknown" }, basic(application.id, secret));
    const replaced = developerCredentialsSchema.parse(
      (await send(`${url}/secret`, { overlapHours: 1 }, owner.cookie)).json(),
    );
    // The client authenticated (the unknown refresh token is what is refused) with either secret.
    expect(await (await refresh(first)).json()).toMatchObject({ error: "invalid_grant" });
    expect(await (await refresh(replaced.secret)).json()).toMatchObject({ error: "invalid_grant" });
    const detail = developerApplicationSchema.parse(
      (await t.app.inject({ url, headers: { cookie: owner.cookie } })).json(),
    );
    expect(detail.secrets.every((secret) => secret.lastUsedAt !== null)).toBe(true);
    await send(`${url}/secret/end-previous`, {}, owner.cookie);
    expect(await (await refresh(first)).json()).toMatchObject({ error: "invalid_client" });
  });

  it("shows the sent and registered redirect URIs on the error page to the signed-in owner only, with a language switch", async () => {
    const owner = await addStudent(t.app, "errors");
    const stranger = await addStudent(t.app, "stranger");
    const registered = "https://errors.example.edu/cb";
    const { application, secret } = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Помилки", titleEn: "Errors", redirectUris: [registered] },
      origin,
    );
    const config = await discover(issuer, application.id, secret);
    const wrong = "https://errors.example.edu/other";
    const pageFor = async (cookie: string) => {
      const browser = new TestBrowser(origin);
      browser.setCookie(cookie);
      const start = await startSignIn(config, wrong, "openid", { ui_locales: "en" });
      const answer = await browser.request(start.url.href, { headers: { accept: "text/html" } });
      return { status: answer.status, html: await answer.text() };
    };
    const seen = await pageFor(owner.cookie);
    expect(seen.status).toBe(400);
    expect(seen.html).toContain('data-testid="oidc-owner-details"');
    expect(seen.html).toContain(wrong);
    expect(seen.html).toContain(registered);
    // The switch repeats the request in Ukrainian.
    expect(seen.html).toMatch(/href="[^"]*ui_locales=uk[^"]*"[^>]*data-testid="oidc-language-switch"/);
    const other = await pageFor(stranger.cookie);
    expect(other.status).toBe(400);
    expect(other.html).not.toContain(registered);
    expect(other.html).not.toContain('data-testid="oidc-owner-details"');
  });
});
