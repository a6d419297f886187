import { appStateMaxLength, forwardAuthPaths } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addProtectedSite, addVisitor, signInWithoutNginx } from "../../support/nginx-visit.ts";

const siteOrigin = "https://wiki.kpi.ua";

/**
 * The nginx endpoints' edges, through `app.inject` as nginx passes requests on: an application whose callback is
 * empty, an address that grows when percent-encoded, and a sign-out link on another site.
 */
describe.each(aboveModelDatabases)("nginx auth_request edges (%s)", (kind) => {
  let t: TestApp;
  let site: { id: string };
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["forward-auth", "tickets"] });
    site = await addProtectedSite(t.app, siteOrigin);
  });
  afterAll(() => t.close());

  const onSite = (headers: Record<string, string> = {}) => ({
    "x-kpi-id-application": site.id,
    "x-original-url": `${siteOrigin}/`,
    ...headers,
  });
  const stillLets = async (siteCookie: string) =>
    (await t.app.inject({ url: forwardAuthPaths.check, headers: onSite({ cookie: siteCookie }) })).statusCode;

  it("an application behind nginx with an empty callback answers 403 not_configured on every path, never 500", async () => {
    const broken = await addProtectedSite(t.app, "https://broken.kpi.ua");
    await t.app.db.updateTable("applications").set({ callback_url: "" }).where("id", "=", broken.id).execute();
    for (const url of Object.values(forwardAuthPaths)) {
      const answer = await t.app.inject({
        url,
        headers: { "x-kpi-id-application": broken.id, "x-original-url": "https://broken.kpi.ua/" },
      });
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json()).toMatchObject({ code: "forward_auth.not_configured" });
    }
  });

  it("an address that outgrows the state once percent-encoded goes back to the host's front page, not nowhere", async () => {
    // 200 Cyrillic letters fit the room raw (≈ 220 characters) but become 1,200 percent-encoded.
    const raw = `${siteOrigin}/${"ї".repeat(200)}`;
    expect(raw.length).toBeLessThan(appStateMaxLength - 23);
    const start = await t.app.inject({ url: forwardAuthPaths.start, headers: onSite({ "x-original-url": raw }) });
    expect(start.statusCode).toBe(302);
    const state = new URL(String(start.headers.location)).searchParams.get("state") ?? "";
    expect(state.length).toBeLessThanOrEqual(appStateMaxLength);
    expect(state.slice(state.indexOf("~") + 1)).toBe(`${siteOrigin}/`);

    // A short one is kept, percent-encoded as the browser will ask for it.
    const short = await t.app.inject({
      url: forwardAuthPaths.start,
      headers: onSite({ "x-original-url": `${siteOrigin}/вікі` }),
    });
    const kept = new URL(String(short.headers.location)).searchParams.get("state") ?? "";
    expect(kept.slice(kept.indexOf("~") + 1)).toBe(`${siteOrigin}/%D0%B2%D1%96%D0%BA%D1%96`);
  });

  it("a sign-out link on another site does not sign the person out of the host; the host's own link does", async () => {
    const visitor = await addVisitor(t.app, [site.id]);
    const siteCookie = await signInWithoutNginx(t.app, site.id, siteOrigin, visitor.kpiIdCookie);
    expect(await stillLets(siteCookie)).toBe(200);

    const forged: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { referer: "https://evil.example/page" },
      {},
    ];
    for (const headers of forged) {
      const answer = await t.app.inject({
        url: `${forwardAuthPaths.signOut}?rd=/bye`,
        headers: onSite({ cookie: siteCookie, ...headers }),
      });
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe(`${siteOrigin}/bye`);
      expect(answer.cookies.find((cookie) => cookie.name === "__Host-kpi_id_site")).toBeUndefined();
      expect(await stillLets(siteCookie)).toBe(200);
    }

    // A browser without Fetch Metadata following the host's own link names the host as the referrer.
    const other = await signInWithoutNginx(t.app, site.id, siteOrigin, visitor.kpiIdCookie);
    const byReferer = await t.app.inject({
      url: forwardAuthPaths.signOut,
      headers: onSite({ cookie: other, referer: `${siteOrigin}/page` }),
    });
    expect(byReferer.statusCode).toBe(302);
    expect(await stillLets(other)).toBe(401);

    const own = await t.app.inject({
      url: `${forwardAuthPaths.signOut}?rd=/bye`,
      headers: onSite({ cookie: siteCookie, "sec-fetch-site": "same-origin" }),
    });
    expect(own.statusCode).toBe(302);
    expect(own.headers.location).toBe(`${siteOrigin}/bye`);
    expect(own.cookies.find((cookie) => cookie.name === "__Host-kpi_id_site")?.value).toBe("");
    expect(await stillLets(siteCookie)).toBe(401);
  });
});
