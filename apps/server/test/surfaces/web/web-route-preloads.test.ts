import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { type RoutePreloads, routePreloadsFile } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";

// What the web build writes (apps/web/scripts/route-preloads.ts): each lazy page's chunks beyond the first load.
const preloads: RoutePreloads = {
  apps: { scripts: ["assets/apps-A1b2.js", "assets/card-C3d4.js"], signedIn: true },
  diia: { scripts: ["assets/diia-E5f6.js", "assets/card-C3d4.js"], signedIn: false },
  // A name that is no asset path never reaches the page (the file is the build's, but the page is everyone's).
  faq: { scripts: ['assets/x.js"><script>alert(1)</script>', "assets/faq-G7h8.js"], signedIn: false },
};

describe("the page preloads the chunks of the page it is for", () => {
  const dist = mkdtempSync(join(tmpdir(), "kpi-id-dist-"));
  let testApp: TestApp;
  // A live session: a cookie naming none makes the page signed out (and preloads nothing of a signed-in page).
  const signedIn = { cookie: "" };
  const preloaded = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  beforeAll(async () => {
    writeFileSync(join(dist, "index.html"), '<!doctype html><html lang="uk"><head><title>KPI ID</title></head></html>');
    writeFileSync(join(dist, routePreloadsFile), JSON.stringify(preloads));
    testApp = await createTestApp("pglite", { WEB_DIST_DIR: dist }, { protocols: [] });
    await addPerson(testApp.app, { username: "preload.person", fullName: "Пре Лоад" }, "preload passphrase 1");
    signedIn.cookie = await signIn(testApp.app, "preload.person", "preload passphrase 1");
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => testApp.app.inject({ url, headers });

  it("names the apps page's chunks in /uk/apps for a signed-in browser, and none of them in /uk/", async () => {
    const apps = await get("/uk/apps?appId=x", signedIn);
    expect(preloaded(apps.body)).toEqual(["/assets/apps-A1b2.js", "/assets/card-C3d4.js"]);
    // In the head, before the boot data: the browser starts them beside the main script.
    expect(apps.body.indexOf("apps-A1b2.js")).toBeLessThan(apps.body.indexOf("</head>"));
    const login = await get("/uk/", signedIn);
    expect(login.body).not.toContain("apps-A1b2.js");
    expect(preloaded(login.body)).toEqual([]);
    const compressed = await get("/en/apps", { ...signedIn, "accept-encoding": "br" });
    expect(preloaded(brotliDecompressSync(compressed.rawPayload).toString())).toContain("/assets/apps-A1b2.js");
  });

  it("preloads a public page for anyone, a signed-in page only with a session cookie", async () => {
    expect(preloaded((await get("/uk/diia")).body)).toEqual(["/assets/diia-E5f6.js", "/assets/card-C3d4.js"]);
    // Without a session the apps page sends the visitor to the login page: its code would be wasted.
    expect(preloaded((await get("/uk/apps")).body)).toEqual([]);
    expect(preloaded((await get("/uk/apps", signedIn)).body)).toHaveLength(2);
    // A cookie that names no live session is no sign-in.
    expect(preloaded((await get("/uk/apps", { cookie: "kpi_id_session=ended-token" })).body)).toEqual([]);
  });

  it("preloads nothing for a path that is no page, or one outside a language", async () => {
    for (const url of ["/uk/apps/extra", "/apps", "/fr/apps", "/google-auth?code=c"]) {
      const page = await get(url, signedIn);
      expect(preloaded(page.body), url).toEqual([]);
      expect(page.body, url).toContain("<title>KPI ID</title>");
    }
  });

  it("writes only asset paths from the build's list into the page", async () => {
    const faq = await get("/uk/faq");
    expect(preloaded(faq.body)).toEqual(["/assets/faq-G7h8.js"]);
    expect(faq.body).not.toContain("alert(1)");
  });
});
