import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { addPerson, grantAccess } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { type DeviceClient, DevicePage, deviceOf, idTokenSubject } from "../../support/device.ts";
import { createListeningTestApp } from "../../support/listening.ts";
import { addOidcClient, TestBrowser } from "../../support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";
const password = "correct horse battery";

describe.each(aboveModelDatabases)("OpenID Connect device authorization grant, RFC 8628 (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;
  let deviceClient: DeviceClient;
  let webClient: DeviceClient;
  let userId: string;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, { protocols: ["oidc"] }));
    const device = await addOidcClient(test.app, {
      redirectUris: [redirectUri],
      deviceFlow: true,
      scopes: ["openid", "profile", "email"],
    });
    deviceClient = { id: device.application.id, secret: device.secret };
    const web = await addOidcClient(test.app, { redirectUris: [redirectUri] });
    webClient = { id: web.application.id, secret: web.secret };
    const person = await addPerson(
      test.app,
      { username: "d.bot", fullName: "Дмитро Бот", email: "d.bot@kpi.ua" },
      password,
    );
    userId = person.id;
    await grantAccess(test.app.db, userId, deviceClient.id);
  });
  afterAll(() => test?.close());

  async function signedInPage(language?: "uk" | "en") {
    const browser = new TestBrowser(origin);
    await browser.signIn("d.bot", password);
    return new DevicePage(browser, language);
  }

  it("gives an allowed application a device code, an eight-digit user code and the web page's addresses", async () => {
    const { status, body } = await deviceOf(issuer, deviceClient).askForCode();
    expect(status).toBe(200);
    expect(body.user_code).toMatch(/^\d{4}-\d{4}$/);
    expect(body.verification_uri).toBe(`${origin}/uk/device`);
    expect(body.verification_uri_complete).toBe(`${origin}/uk/device?user_code=${body.user_code}`);
    expect(typeof body.device_code).toBe("string");
    expect(body.expires_in).toBeGreaterThan(0);
    const english = await deviceOf(issuer, deviceClient).askForCode({ scope: "openid", ui_locales: "en-GB uk" });
    expect(english.body.verification_uri).toBe(`${origin}/en/device`);
  });

  it("refuses a device code to an application that was not allowed the grant", async () => {
    const { status, body } = await deviceOf(issuer, webClient).askForCode();
    // oidc-provider answers invalid_request (not RFC 8628's unauthorized_client) and names the grant.
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_request");
  });

  it.each([
    ["the provider's verification address", "", null],
    ["the provider's full link, keeping the code", "?user_code=1234-5678", "1234-5678"],
  ])("sends a person who opens %s to the web app's device page in their language", async (_, query, kept) => {
    const response = await fetch(`${issuer}/device${query}`, {
      redirect: "manual",
      headers: { "accept-language": "en-US,en;q=0.9" },
    });
    expect(response.status).toBe(303);
    expect(await response.text()).not.toContain("<form");
    const target = new URL(response.headers.get("location") ?? "");
    expect(target.origin + target.pathname).toBe(`${origin}/en/device`);
    expect(target.searchParams.get("user_code")).toBe(kept);
  });

  it("signs the device in as the person who allowed it: the request in words, the grant, the audit row, the account page", async () => {
    const device = deviceOf(issuer, deviceClient);
    const { body: code } = await device.askForCode({ scope: "openid profile email" });
    expect((await device.poll(code.device_code)).body.error).toBe("authorization_pending");

    const page = await signedInPage("en");
    const looked = await page.lookUp(code.user_code.replace("-", ""));
    expect(looked.status).toBe(200);
    expect(looked.body).toMatchObject({
      userCode: code.user_code,
      application: { title: expect.stringContaining("OIDC client") },
      scopes: ["profile", "email"],
      person: { name: "Дмитро Бот" },
      access: true,
    });

    const ended = await page.answer(code.user_code, "confirm");
    expect(ended.pathname).toBe("/en/device");
    expect(ended.searchParams.get("result")).toBe("allowed");

    const tokens = await device.poll(code.device_code);
    expect(tokens.status).toBe(200);
    expect(idTokenSubject(tokens.body.id_token)).toBe(userId);

    const audit = await test.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "application_id"])
      .where("user_id", "=", userId)
      .where("event_type", "=", "oidc_device_confirmed")
      .orderBy("audit_events.id")
      .execute();
    expect(audit).toEqual([
      { event_type: "oidc_device_confirmed", result: "success", application_id: deviceClient.id },
    ]);
    const connected = await page.browser.request("/api/account/applications");
    const { applications } = (await connected.json()) as { applications: { id: string }[] };
    expect(applications.map((application) => application.id)).toContain(deviceClient.id);
  });

  it("tells the device access_denied when the person denies it, and audits the refusal", async () => {
    const device = deviceOf(issuer, deviceClient);
    const { body: code } = await device.askForCode();
    const page = await signedInPage();
    const ended = await page.answer(code.user_code, "abort");
    expect(ended.pathname).toBe("/uk/device");
    expect(ended.searchParams.get("result")).toBe("denied");
    expect((await device.poll(code.device_code)).body.error).toBe("access_denied");
    const denied = await test.app.db
      .selectFrom("audit_events")
      .select(["result", "application_id"])
      .where("user_id", "=", userId)
      .where("event_type", "=", "oidc_device_denied")
      .orderBy("audit_events.id")
      .execute();
    expect(denied).toEqual([{ result: "failure", application_id: deviceClient.id }]);
  });

  it("answers a wrong and an already used code with their own translated errors", async () => {
    const page = await signedInPage("en");
    const wrong = await page.lookUp("0000-0000");
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      code: "device.code_not_found",
      message: expect.stringContaining("no such code"),
    });

    const { body: code } = await deviceOf(issuer, deviceClient).askForCode();
    await page.answer(code.user_code, "confirm");
    const used = await page.lookUp(code.user_code);
    expect(used.status).toBe(409);
    expect(used.body.code).toBe("device.code_used");
  });

  it("comes back to the device page, with the code, after a person who was not signed in signs in", async () => {
    const browser = new TestBrowser(origin);
    const page = new DevicePage(browser);
    expect((await page.post({ user_code: "1234-5678" })).status).toBe(401);
    const remembered = await browser.request("/api/device/continue", {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ userCode: "1234-5678" }),
    });
    expect(remembered.status).toBe(200);
    expect(await browser.signIn("d.bot", password)).toBe("/uk/device?user_code=1234-5678");
  });
});

describe.each(aboveModelDatabases)("a device code past its lifetime (%s)", (kind) => {
  let test: TestApp;
  let origin: string;
  let issuer: string;

  beforeAll(async () => {
    ({ test, origin, issuer } = await createListeningTestApp(kind, {
      protocols: ["oidc"],
      env: { OIDC_DEVICE_CODE_TTL_SECONDS: "1" },
    }));
    await addPerson(test.app, { username: "e.late", fullName: "Євген Пізній", email: "e.late@kpi.ua" }, password);
  });
  afterAll(() => test?.close());

  it("is answered as expired to the person and expired_token to the device", async () => {
    const added = await addOidcClient(test.app, { redirectUris: [redirectUri], deviceFlow: true });
    const device = deviceOf(issuer, { id: added.application.id, secret: added.secret });
    const { body: code } = await device.askForCode();
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const browser = new TestBrowser(origin);
    await browser.signIn("e.late", password);
    const expired = await new DevicePage(browser).lookUp(code.user_code);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("device.code_expired");
    expect((await device.poll(code.device_code)).body.error).toBe("expired_token");
  });
});
