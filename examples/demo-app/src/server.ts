import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { escapeHtml, page } from "./html.ts";
import { registerOidcSignIn } from "./oidc.ts";
import { readCredentials, redeemTicket, type TicketAnswer, TicketRejectedError } from "./tickets.ts";

export interface DemoSiteOptions {
  port: number;
  host?: string;
  /** The KPI ID service (where the button script and the ticket API live). */
  productUrl: string;
  /** The product's DATA_DIR, where the demo seed writes demo-apps.json. */
  dataDir: string;
  /** This site's address as KPI ID knows it (DEMO_SITE_URL); default http://localhost:{port}. */
  siteUrl?: string;
}

export interface RunningDemoSite {
  url: string;
  close(): Promise<void>;
}

/** The demo applications and where their callbacks land on this site. */
const callbacks = [
  { path: "/callback", app: "demo-site", title: "Демо-сайт інтегратора" },
  { path: "/campus/callback", app: "campus", title: "Електронний кампус" },
  { path: "/my-kpi/callback", app: "my-kpi", title: "Мій КПІ" },
];

function send(reply: FastifyReply, status: number, html: string, productOrigin: string, nonce: string) {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .header(
      "content-security-policy",
      `default-src 'none'; script-src ${productOrigin}; style-src 'nonce-${nonce}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    .send(html);
}

function homePage(productUrl: string, appId: string | undefined, nonce: string): string {
  const button = appId
    ? `<div id="kpi_id_signin" data-app-id="${escapeHtml(appId)}"></div>
<script src="${escapeHtml(new URL("/kpi-id-signin.js", productUrl).href)}" nonce="${nonce}" async></script>`
    : `<p class="error">The demo application is not registered yet: start KPI ID with demo data (npm start).</p>`;
  return page(
    "Демо-сайт інтегратора",
    `<h1>Демо-сайт інтегратора</h1>
<p>A third-party site on its own origin. Its page includes the KPI ID script; its server redeems the ticket.</p>
${button}
<p><a href="/oidc/login" data-testid="oidc-login">Увійти з KPI ID через OpenID Connect</a></p>`,
    nonce,
  );
}

function signedInPage(title: string, answer: TicketAnswer, nonce: string): string {
  const rows = Object.entries(answer.data)
    .filter(([key]) => key !== "TAX_ID") // a demo page never shows the tax id
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value || "--")}</dd>`)
    .join("");
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p id="signed-in">Signed in as <strong data-testid="signed-in-name">${escapeHtml(answer.data.NAME)}</strong></p>
<dl>${rows}</dl><p><a href="/">Back to the demo site</a></p>`,
    nonce,
  );
}

function errorPage(title: string, message: string, nonce: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(message)}</p><p><a href="/">Back</a></p>`,
    nonce,
  );
}

export async function startDemoSite(options: DemoSiteOptions): Promise<RunningDemoSite> {
  const productOrigin = new URL(options.productUrl).origin;
  const app = Fastify({ logger: false });

  app.get("/", async (_request, reply) => {
    const nonce = randomBytes(16).toString("base64");
    const credentials = await readCredentials(options.dataDir, "demo-site");
    return send(reply, 200, homePage(options.productUrl, credentials?.id, nonce), productOrigin, nonce);
  });

  registerOidcSignIn(app, {
    productUrl: options.productUrl,
    siteUrl: new URL(options.siteUrl ?? process.env.DEMO_SITE_URL ?? `http://localhost:${options.port}`).origin,
    dataDir: options.dataDir,
    send: (reply, status, html, nonce) => send(reply, status, html, productOrigin, nonce),
  });

  for (const callback of callbacks) {
    app.get(callback.path, async (request: FastifyRequest<{ Querystring: { ticketId?: string } }>, reply) => {
      const nonce = randomBytes(16).toString("base64");
      const ticketId = typeof request.query.ticketId === "string" ? request.query.ticketId : "";
      const credentials = await readCredentials(options.dataDir, callback.app);
      if (!ticketId || !credentials) {
        const why = !ticketId ? "No ticketId in the callback." : "This demo application is not registered.";
        return send(reply, 400, errorPage(callback.title, why, nonce), productOrigin, nonce);
      }
      try {
        const answer = await redeemTicket(options.productUrl, credentials, ticketId);
        return send(reply, 200, signedInPage(callback.title, answer, nonce), productOrigin, nonce);
      } catch (error) {
        const message = error instanceof TicketRejectedError ? error.message : "KPI ID could not be reached.";
        return send(reply, 502, errorPage(callback.title, message, nonce), productOrigin, nonce);
      }
    });
  }

  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port, host });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://localhost:${port}`, close: () => app.close() };
}
