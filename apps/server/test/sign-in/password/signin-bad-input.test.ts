import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, sessionCookieFrom } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("bad requests to sign-in on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"] });
  });
  afterAll(() => t.close());

  const raw = (url: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url,
      payload,
      headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers },
    });

  const cases: [string, () => ReturnType<typeof raw>, number, string][] = [
    ["malformed JSON", () => raw("/api/auth", '{"username": "a", "password":'), 400, "request.invalid_json"],
    [
      "wrong types",
      () => raw("/api/auth", JSON.stringify({ username: 42, password: ["x"] })),
      400,
      "request.validation_failed",
    ],
    ["missing fields", () => raw("/api/auth", JSON.stringify({ username: "a" })), 400, "request.validation_failed"],
    ["an empty body", () => raw("/api/auth", ""), 400, "request.validation_failed"],
    ["a JSON array", () => raw("/api/auth/internal", "[]"), 400, "request.validation_failed"],
    [
      "a grant of the wrong type",
      () => raw("/api/auth/internal", JSON.stringify({ sessionId: 7 })),
      400,
      "request.validation_failed",
    ],
    [
      "a 1 MB body",
      () => raw("/api/auth", JSON.stringify({ username: "a", password: "p".repeat(1024 * 1024) })),
      413,
      "request.payload_too_large",
    ],
    [
      "a cross-origin POST",
      () => raw("/api/auth", JSON.stringify({ username: "a", password: "b" }), { origin: "https://evil.example" }),
      403,
      "request.csrf_rejected",
    ],
    [
      "a POST without Origin",
      () => t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { "content-type": "application/json" } }),
      403,
      "request.csrf_rejected",
    ],
    [
      "a form POST from another site",
      () =>
        raw("/api/auth", "username=a&password=b", {
          "content-type": "application/x-www-form-urlencoded",
          origin: "https://evil.example",
        }),
      415,
      "request.unsupported_media_type",
    ],
    [
      "a ticket POST with a malformed body",
      () =>
        t.app.inject({
          method: "POST",
          url: "/api/ticket",
          headers: { "content-type": "application/json" },
          payload: "{",
        }),
      400,
      "request.invalid_json",
    ],
    [
      "a ticket redemption with junk",
      () => t.app.inject({ url: "/api/ticket?ticketId[]=1&appId=%00" }),
      401,
      "ticket.invalid",
    ],
  ];

  it.each(cases)("answers %s with its 4xx and a translated code", async (_name, send, status, code) => {
    const response = await send();
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers in English when asked", async () => {
    const response = await raw("/api/auth", "{", { "accept-language": "en" });
    expect(response.json()).toEqual({ code: "request.invalid_json", message: "The request body is not valid JSON." });
  });

  it("documents the routes in /api/openapi.json and renders them at /api/docs under the strict CSP", async () => {
    const document = (await t.app.inject({ url: "/api/openapi.json" })).json();
    for (const path of [
      "/api/auth",
      "/api/auth/internal",
      "/api/auth/logout",
      "/user",
      "/api/user",
      "/api/app-redirect",
      "/api/ticket",
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    expect(document.paths["/api/ticket"].get.tags).toEqual(["applications"]);
    expect(document.paths["/api/auth"].post.summary).toBe("Check a username and password");

    const page = await t.app.inject({ url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)|<script(?![^>]*\bsrc=)[^>]*>\s*\S/);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp.split("script-src")[1]?.split(";")[0]).not.toContain("unsafe-inline");
    const script = await t.app.inject({ url: "/api/docs/static/swagger-initializer.js" });
    expect(script.statusCode).toBe(200);
  });
});

describe("the session cookie over https", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite", { PUBLIC_URL: "https://id.kpi.ua" }, { protocols: ["tickets"] });
    await addPerson(t.app, { username: "secure", fullName: "Захищена" }, "a password that is long");
  });
  afterAll(() => t.close());

  it("is __Host- prefixed and Secure", async () => {
    const headers = { origin: "https://id.kpi.ua" };
    const auth = await postJson(
      t.app,
      "/api/auth",
      { username: "secure", password: "a password that is long" },
      { headers },
    );
    const internal = await postJson(t.app, "/api/auth/internal", { sessionId: auth.json().sessionId }, { headers });
    // The answer also sets the browser's device cookie (platform/http/device-cookie.ts); this test is about the session's.
    const setCookie = [internal.headers["set-cookie"] ?? []]
      .flat()
      .find((line) => line.startsWith("__Host-kpi_id_session="));
    expect(setCookie).toMatch(/^__Host-kpi_id_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const me = await t.app.inject({ url: "/user", headers: { cookie: sessionCookieFrom(internal) } });
    expect(me.statusCode).toBe(200);
    const plain = await t.app.inject({
      url: "/user",
      headers: { cookie: sessionCookieFrom(internal).replace("__Host-", "") },
    });
    expect(plain.statusCode).toBe(401);
  });
});
