import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { type BootData, bootDataElementId, startNamespaces } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";

describe("serving the built web app", () => {
  const dist = mkdtempSync(join(tmpdir(), "kpi-id-dist-"));
  let testApp: TestApp;

  beforeAll(async () => {
    mkdirSync(join(dist, "assets"));
    mkdirSync(join(dist, "locales", "uk"), { recursive: true });
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>KPI ID</title>");
    writeFileSync(join(dist, "assets", "app-abc123.js"), "console.log(1)");
    writeFileSync(join(dist, "locales", "uk", "common.json"), '{"title":"Вхід"}');
    // What the build's precompress step writes beside each text file.
    for (const file of ["index.html", join("assets", "app-abc123.js")]) {
      const content = readFileSync(join(dist, file));
      writeFileSync(join(dist, `${file}.br`), brotliCompressSync(content));
      writeFileSync(join(dist, `${file}.gz`), gzipSync(content));
    }
    testApp = await createTestApp("pglite", { WEB_DIST_DIR: dist }, { protocols: [] });
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => testApp.app.inject({ url, headers });

  it("answers the app's page for /, for language routes and for /google-auth, never cached", async () => {
    for (const url of ["/", "/?appId=abc", "/uk/", "/en/apps?appId=x", "/uk/button-wizard", "/google-auth?code=c"]) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain("<title>KPI ID</title>");
      expect(page.headers["cache-control"], url).toBe("no-cache");
    }
  });

  it("answers HEAD for a page as GET does, without the body", async () => {
    for (const url of ["/uk/apps", "/en", "/uk/nothing-here"]) {
      const head = await testApp.app.inject({ method: "HEAD", url });
      expect(head.statusCode, url).toBe(url === "/uk/nothing-here" ? 404 : 200);
      expect(head.headers["content-type"], url).toContain("text/html");
      expect(head.body, url).toBe("");
    }
  });

  it("answers paths that are no page of the app with 404, still with the page (it shows the not-found screen)", async () => {
    // An empty segment under a language is no page either: answered without looking on disk for a file.
    for (const url of ["/uk/nothing-here", "/en/apps/extra", "/fr/apps", "/nothing", "/uk/apps/x/y", "/uk//apps"]) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(404);
      expect(page.body, url).toContain("<title>KPI ID</title>");
      expect(page.headers["content-type"], url).toContain("text/html");
    }
  });

  it("sends the build's brotli or gzip file to a browser that accepts it, and plain bytes otherwise", async () => {
    const brotli = await get("/assets/app-abc123.js", { "accept-encoding": "gzip, deflate, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toContain("javascript");
    expect(brotli.headers.vary).toContain("accept-encoding");
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe("console.log(1)");
    const gzip = await get("/assets/app-abc123.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const plain = await get("/assets/app-abc123.js", { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe("console.log(1)");
    const page = await get("/uk/apps", { "accept-encoding": "br" });
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["content-type"]).toContain("text/html");
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain("<title>KPI ID</title>");
  });

  it("serves hashed assets for a year and locale files for revalidation", async () => {
    const asset = await get("/assets/app-abc123.js");
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const locale = await get("/locales/uk/common.json");
    expect(locale.json()).toEqual({ title: "Вхід" });
    expect(locale.headers["cache-control"]).toBe("no-cache");
  });

  it("answers missing files, directories and API paths with a JSON 404, not the page", async () => {
    for (const url of [
      "/assets/missing.js",
      "/assets/",
      "/locales/",
      "/locales/en/common.json",
      "/api/nothing",
      "/logo.png",
      // Under a language's path there are only pages: a file name there is a missing file too.
      "/uk/logo.png",
      "/en/apps/app-abc123.js",
    ]) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json(), url).toMatchObject({ code: "request.not_found" });
    }
  });

  it("serves a file that appeared after start (a rebuild, the manual PDF) without a restart", async () => {
    expect((await get("/integration_manual.pdf")).statusCode).toBe(404);
    writeFileSync(join(dist, "integration_manual.pdf"), "%PDF-1.3 test");
    const pdf = await get("/integration_manual.pdf");
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
  });
});

describe("the page carries what the first screen needs", () => {
  const dist = mkdtempSync(join(tmpdir(), "kpi-id-dist-"));
  let testApp: TestApp;
  const bootData = (html: string): BootData => {
    const match = html.match(new RegExp(`<script type="application/json" id="${bootDataElementId}">(.*?)</script>`));
    if (!match?.[1]) throw new Error("no boot data in the page");
    return JSON.parse(match[1]) as BootData;
  };

  beforeAll(async () => {
    writeFileSync(join(dist, "index.html"), '<!doctype html><html lang="uk"><head><title>KPI ID</title></head></html>');
    for (const language of ["uk", "en"]) {
      mkdirSync(join(dist, "locales", language), { recursive: true });
      for (const ns of startNamespaces) {
        writeFileSync(
          join(dist, "locales", language, `${ns}.json`),
          JSON.stringify({ who: `${language}-${ns}</script>` }),
        );
      }
    }
    testApp = await createTestApp(
      "pglite",
      {
        WEB_DIST_DIR: dist,
        SUPPORT_EMAIL: "help@kpi.example",
        SUPPORT_BOT_STUDENTS_URL: "https://t.me/students_bot",
      },
      { protocols: [] },
    );
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("writes the settings and the page language's translations into the page, in a JSON element no script can escape", async () => {
    const page = await testApp.app.inject({ url: "/en/faq" });
    expect(page.body).toContain('<html lang="en"');
    expect(page.body).not.toContain("-common</script>");
    const boot = bootData(page.body);
    const settings = await testApp.app.inject({ url: "/api/settings" });
    expect(boot.settings).toEqual(settings.json());
    expect(boot.settings.supportEmail).toBe("help@kpi.example");
    // English, and Ukrainian for keys English lacks (i18next's fallback language).
    expect(boot.translations.en?.common).toEqual({ who: "en-common</script>" });
    expect(boot.translations.uk?.errors).toEqual({ who: "uk-errors</script>" });
  });

  it("picks the language as the web app does: the path, then the remembered choice, then Ukrainian", async () => {
    const root = await testApp.app.inject({ url: "/", headers: { cookie: "i18next=en" } });
    expect(Object.keys(bootData(root.body).translations)).toEqual(["en", "uk"]);
    const plain = await testApp.app.inject({ url: "/google-auth?code=x", headers: { "accept-language": "en" } });
    expect(Object.keys(bootData(plain.body).translations)).toEqual(["uk"]);
    const compressed = await testApp.app.inject({ url: "/uk/", headers: { "accept-encoding": "br" } });
    expect(bootData(brotliDecompressSync(compressed.rawPayload).toString()).translations.uk?.auth).toEqual({
      who: "uk-auth</script>",
    });
  });

  it("says nobody is signed in when the request carried no session cookie, so the page does not ask /user", async () => {
    const anonymous = await testApp.app.inject({ url: "/uk/", headers: { cookie: "i18next=uk" } });
    expect(bootData(anonymous.body).signedOut).toBe(true);
    expect(bootData(anonymous.body).user).toBeUndefined();
    // A cookie that no longer names a session: signed out too, and the dead cookie is cleared.
    const stale = await testApp.app.inject({ url: "/uk/apps", headers: { cookie: "kpi_id_session=stale-token" } });
    expect(bootData(stale.body).signedOut).toBe(true);
    expect(stale.cookies.find((cookie) => cookie.name.endsWith("kpi_id_session"))?.value).toBe("");
    expect(stale.headers.vary).toContain("cookie");
    // The API answer integrators rely on is unchanged: an anonymous /user is still a 401.
    const user = await testApp.app.inject({ url: "/user" });
    expect(user.statusCode).toBe(401);
  });

  it("carries the signed-in person's /user answer in the page's language, in a page no cache keeps", async () => {
    const person = await addPerson(
      testApp.app,
      { username: "boot.person", fullName: "Олена </script> Бут", email: "boot.person@kpi.ua" },
      "boot-person-pass-2026",
    );
    const { application } = await addApplication(testApp.app);
    await grantAccess(testApp.app.db, person.id, application.id);
    const cookie = await signIn(testApp.app, "boot.person", "boot-person-pass-2026");
    for (const language of ["uk", "en"] as const) {
      const page = await testApp.app.inject({ url: `/${language}/apps`, headers: { cookie } });
      const api = await testApp.app.inject({ url: "/user", headers: { cookie, "accept-language": language } });
      const boot = bootData(page.body);
      expect(boot.signedOut).toBe(false);
      expect(boot.user).toEqual(api.json());
      expect(boot.user?.applications.map((app) => app.id)).toEqual([application.id]);
      expect(page.headers["cache-control"]).toBe("no-store");
    }
    // The same page without the cookie is the shared, anonymous one.
    const anonymous = await testApp.app.inject({ url: "/uk/apps" });
    expect(anonymous.body).not.toContain("boot.person");
    expect(anonymous.headers["cache-control"]).toBe("no-cache");
  });
});
