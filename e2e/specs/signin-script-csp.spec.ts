import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "../fixtures.ts";

interface Violation {
  directive: string;
  blocked: string;
}

declare global {
  interface Window {
    violations: Violation[];
  }
}

const nonce = "c3RyaWN0LWNzcC10ZXN0";
const strictCsp = (serviceOrigin: string) =>
  `default-src 'none'; script-src ${serviceOrigin}; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'`;

function pageWithButtons(baseURL: string, extra = ""): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strict</title></head><body>
<div id="kpi_id_signin" data-app-id="first"></div>
<div data-kpi-id-signin data-app-id="second" data-color="outline" data-locale="en"></div>
<div data-kpi-id-signin data-app-id="third" data-size="small" data-logo-alignment="right"></div>
${extra}
<script src="${baseURL}/kpi-id-signin.js" nonce="${nonce}"></script></body></html>`;
}

async function serve(baseURL: string, html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": strictCsp(baseURL),
    });
    response.end(html);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

test.describe("kpi-id-signin.js under a strict Content Security Policy", () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      window.violations = [];
      document.addEventListener("securitypolicyviolation", (event) => {
        window.violations.push({ directive: event.violatedDirective, blocked: event.blockedURI });
      });
    });
  });

  for (const styling of ["constructed style sheet", "nonce on a style element"] as const) {
    test(`renders three styled buttons with no violation (${styling})`, async ({ page, baseURL }) => {
      if (styling === "nonce on a style element") {
        // A browser without constructable style sheets takes the nonce path.
        await page.addInitScript(() => {
          delete (Document.prototype as { adoptedStyleSheets?: unknown }).adoptedStyleSheets;
        });
      }
      const site = await serve(String(baseURL), pageWithButtons(String(baseURL)));
      try {
        await page.goto(site.url);
        const links = page.locator("a.kpi-id-btn");
        await expect(links).toHaveCount(3);
        await expect(page.getByRole("link", { name: "Sign in with KPI ID" })).toHaveAttribute(
          "href",
          `${baseURL}/en/?appId=second`,
        );
        // The style sheet applied: the large button is 48 px high, the small one 32 px.
        await expect(links.nth(0)).toHaveCSS("height", "48px");
        await expect(links.nth(2)).toHaveCSS("height", "32px");
        await page.evaluate(() => window.KPIID?.init());
        await expect(links).toHaveCount(3);
        expect(await page.evaluate(() => window.violations)).toEqual([]);
        // Which path ran: a <style> carrying the script tag's nonce, or none at all.
        const styleNonces = await page.$$eval("style[data-kpi-id-style]", (styles) =>
          styles.map((style) => (style as HTMLStyleElement).nonce),
        );
        expect(styleNonces).toEqual(styling === "nonce on a style element" ? [nonce] : []);
        await links.nth(0).focus();
        await expect(links.nth(0)).toHaveCSS("outline-style", "solid");
        // The outline variant follows the system colour scheme.
        await expect(links.nth(1)).toHaveCSS("background-color", "rgb(255, 255, 255)");
        await page.emulateMedia({ colorScheme: "dark" });
        await expect(links.nth(1)).toHaveCSS("background-color", "rgb(17, 24, 39)");
      } finally {
        site.server.close();
      }
    });
  }

  test("the violation listener does catch what the policy forbids (control)", async ({ page, baseURL }) => {
    const site = await serve(String(baseURL), pageWithButtons(String(baseURL), `<style>p{color:red}</style>`));
    try {
      await page.goto(site.url);
      await expect(page.locator("a.kpi-id-btn")).toHaveCount(3);
      await expect
        .poll(() => page.evaluate(() => window.violations.map((v) => v.directive)))
        .toContain("style-src-elem");
    } finally {
      site.server.close();
    }
  });
});
