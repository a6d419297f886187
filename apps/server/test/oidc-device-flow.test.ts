import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./support/app.ts";
import { databaseKinds } from "./support/databases.ts";
import { createListeningTestApp } from "./support/listening.ts";
import { addOidcClient } from "./support/oidc.ts";

const redirectUri = "https://rp.example.edu/callback";

describe.each(databaseKinds)("OpenID Connect device authorization grant, RFC 8628 (%s)", (kind) => {
  let test: TestApp;
  let issuer: string;
  let deviceClient: { id: string; secret: string };
  let webClient: { id: string; secret: string };

  beforeAll(async () => {
    ({ test, issuer } = await createListeningTestApp(kind));
    const device = await addOidcClient(test.app, { redirectUris: [redirectUri], deviceFlow: true });
    deviceClient = { id: device.application.id, secret: device.secret };
    const web = await addOidcClient(test.app, { redirectUris: [redirectUri] });
    webClient = { id: web.application.id, secret: web.secret };
  });
  afterAll(() => test?.close());

  async function metadata() {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`);
    return (await response.json()) as { device_authorization_endpoint: string; token_endpoint: string };
  }

  function basic(credentials: { id: string; secret: string }) {
    return `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString("base64")}`;
  }

  async function askForCode(credentials: { id: string; secret: string }) {
    const response = await fetch((await metadata()).device_authorization_endpoint, {
      method: "POST",
      headers: { authorization: basic(credentials), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ scope: "openid profile" }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string | number> };
  }

  it("gives an allowed application a device code and an eight-digit user code", async () => {
    const { status, body } = await askForCode(deviceClient);
    expect(status).toBe(200);
    expect(body.user_code).toMatch(/^\d{4}-\d{4}$/);
    expect(body.verification_uri).toBe(`${issuer}/device`);
    expect(body.verification_uri_complete).toBe(`${issuer}/device?user_code=${body.user_code}`);
    expect(typeof body.device_code).toBe("string");
    expect(body.expires_in).toBeGreaterThan(0);
  });

  it("refuses a device code to an application that was not allowed the grant", async () => {
    const { status, body } = await askForCode(webClient);
    // oidc-provider answers invalid_request (not RFC 8628's unauthorized_client) and names the grant.
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_request");
    expect(body.error_description).toContain("device_code is not allowed for this client");
  });

  it("answers authorization_pending while nobody has confirmed the code", async () => {
    const { body } = await askForCode(deviceClient);
    const response = await fetch((await metadata()).token_endpoint, {
      method: "POST",
      headers: { authorization: basic(deviceClient), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: String(body.device_code),
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("authorization_pending");
  });

  it.each([
    ["the verification address", "verification_uri", null],
    ["the device's full link, keeping the code", "verification_uri_complete", "user_code"],
  ])("sends a person who opens %s to the web app's device page, not the provider's form", async (_, link, kept) => {
    const { body } = await askForCode(deviceClient);
    const response = await fetch(String(body[link]), { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(await response.text()).not.toContain("<form");
    const target = new URL(response.headers.get("location") ?? "");
    expect(target.origin + target.pathname).toBe(`${new URL(issuer).origin}/uk/device`);
    expect(target.searchParams.get("user_code")).toBe(kept ? body[kept] : null);
  });
});
