import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createApplication,
  createPasswordHasher,
  createTestApp,
  createUser,
  databaseKinds,
  issueTicket,
  type TestApp,
} from "@kpi-id/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDemoSite, startDemoSite } from "../src/server.ts";

// The demo site against a real KPI ID (listening on a loopback port): the site's server
// redeems tickets the product issued, exactly as a third-party site would.
describe("the demo third-party site", () => {
  let product: TestApp;
  let site: RunningDemoSite;
  let dataDir: string;
  let applicationId: string;
  let userId: string;

  beforeAll(async () => {
    product = await createTestApp(databaseKinds[0] ?? "pglite");
    const productUrl = await product.app.listen({ port: 0, host: "127.0.0.1" });
    const created = await createApplication(product.app.db, {
      name: "demo-site",
      title: "Demo",
      description: "Demo site",
      callbackUrl: "http://localhost:4999/callback",
    });
    applicationId = created.application.id;
    const user = await createUser(product.app.db, createPasswordHasher(product.config.argon2), {
      username: "o.test",
      fullName: "Олег <b>Тест</b>",
      email: "o.test@kpi.ua",
      studentId: "KV-1",
    });
    userId = user.id;
    dataDir = mkdtempSync(join(tmpdir(), "demo-site-"));
    writeFileSync(
      join(dataDir, "demo-apps.json"),
      JSON.stringify({ "demo-site": { id: created.application.id, secret: created.secret } }),
    );
    site = await startDemoSite({ port: 0, productUrl, dataDir });
  });

  afterAll(async () => {
    await site?.close();
    await product?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ticket = () => issueTicket(product.app.db, { applicationId, userId, authMethod: "PASSWORD" }, 60, new Date());

  it("puts the button on its page, loading the script from KPI ID under a strict CSP", async () => {
    const response = await fetch(site.url);
    const html = await response.text();
    expect(html).toContain(`data-app-id="${applicationId}"`);
    expect(html).toMatch(/<script src="http:\/\/127\.0\.0\.1:\d+\/kpi-id-signin\.js" nonce="[^"]+" async>/);
    expect(response.headers.get("content-security-policy")).toMatch(/script-src http:\/\/127\.0\.0\.1:\d+;/);
  });

  it("redeems the ticket and shows who signed in, escaped; the same ticket does not work twice", async () => {
    const callback = `${site.url}/callback?ticketId=${encodeURIComponent(await ticket())}`;
    const first = await fetch(callback);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain('<strong data-testid="signed-in-name">Олег &lt;b&gt;Тест&lt;/b&gt;</strong>');
    expect(html).toContain("<dd>KV-1</dd>");
    expect(html).not.toContain("TAX_ID");

    const replay = await fetch(callback);
    expect(replay.status).toBe(502);
    expect(await replay.text()).toContain("KPI ID rejected the ticket (401)");
  });

  it("answers a callback without a ticket, or for an app it has no secret for, with an error page", async () => {
    expect((await fetch(`${site.url}/callback`)).status).toBe(400);
    expect((await fetch(`${site.url}/campus/callback?ticketId=x`)).status).toBe(400);
  });
});
