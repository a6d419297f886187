import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
// A loopback port nothing listens on (taken and released at once) stands for a provider that is down.
import { freePort } from "../../support/listening.ts";

const asApi = { accept: "application/json" };

describe.each(aboveModelDatabases)("Google sign-in when it is off or its provider is down (%s)", (kind) => {
  let off: TestApp;
  let down: TestApp;
  let issuerPort: number;
  let standIn: RunningGoogleStandIn | undefined;

  beforeAll(async () => {
    off = await createTestApp(kind, {}, { protocols: [] });
    issuerPort = await freePort();
    down = await createTestApp(
      kind,
      {
        GOOGLE_ISSUER: `http://localhost:${issuerPort}`,
        GOOGLE_CLIENT_ID: "not-yet-registered",
        GOOGLE_CLIENT_SECRET: "not-yet-registered-secret",
      },
      { protocols: [] },
    );
  });
  afterAll(async () => {
    await off?.close();
    await down?.close();
    await standIn?.close();
  });

  it("is reported off in the public settings when no client is configured", async () => {
    const settings = await off.app.inject({ method: "GET", url: "/api/settings" });
    expect(settings.json().googleEnabled).toBe(false);
  });

  it("answers 503 google.not_configured to scripts, on both endpoints", async () => {
    const start = await off.app.inject({ method: "GET", url: "/api/google/redirect", headers: asApi });
    expect(start.statusCode).toBe(503);
    expect(start.json().code).toBe("google.not_configured");
    const finish = await off.app.inject({ method: "GET", url: "/google/auth?code=c&state=s", headers: asApi });
    expect(finish.statusCode).toBe(503);
    expect(finish.json().code).toBe("google.not_configured");
  });

  it("sends a browser back to the login page in its language with the Google alert", async () => {
    const html = "text/html,application/xhtml+xml";
    const byCookie = await off.app.inject({
      method: "GET",
      url: "/api/google/redirect?appId=5b0c2f7e-3a51-4c1e-9d59-0b6f5f0f2a11",
      headers: { accept: html, cookie: "i18next=en", "accept-language": "uk" },
    });
    expect(byCookie.statusCode).toBe(302);
    expect(byCookie.headers.location).toBe("/en/?google_auth_error=unavailable");
    const byHeader = await off.app.inject({ method: "GET", url: "/api/google/redirect", headers: { accept: html } });
    expect(byHeader.headers.location).toBe("/uk/?google_auth_error=unavailable");
  });

  it("answers 503 while the provider cannot be reached, and recovers once it can", async () => {
    const unreachable = await down.app.inject({ method: "GET", url: "/api/google/redirect", headers: asApi });
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.json().code).toBe("google.not_configured");

    // A failed discovery is not remembered: the next request tries again.
    standIn = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: issuerPort });
    const reachable = await down.app.inject({ method: "GET", url: "/api/google/redirect", headers: asApi });
    expect(reachable.statusCode).toBe(302);
    expect(String(reachable.headers.location)).toMatch(new RegExp(`^http://localhost:${issuerPort}/`));
  });
});
