import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";

const submitScript = "document.forms[0].submit();";
const scriptHash = `'sha256-${createHash("sha256").update(submitScript).digest("base64")}'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The HTTP-POST binding: a page whose form the browser submits to the SP at
 * once (a button when scripts are off). The page's CSP allows exactly that
 * script and a form posting to that one address, and KPI ID itself: browsers hold
 * the redirect that answers a form to form-action too, and an SP answers our
 * LogoutRequest by redirecting to /saml/slo (its LogoutResponse by HTTP-Redirect).
 */
export function sendPostForm(reply: FastifyReply, action: string, fields: Record<string, string | null | undefined>) {
  const inputs = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const origin = new URL(action).origin;
  return reply
    .header(
      "content-security-policy",
      `default-src 'none'; script-src ${scriptHash}; form-action ${origin} 'self'; frame-ancestors 'none'; base-uri 'none'`,
    )
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>KPI ID</title></head><body>` +
        `<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>` +
        `<script>${submitScript}</script></body></html>`,
    );
}

/**
 * A page that sends the browser on to a path of KPI ID by a new navigation (meta refresh), not
 * a redirect: an SP answering our LogoutRequest posted from a form page is still in that form's
 * navigation, so a redirect on to the next SP (another origin) would be held to the form's
 * form-action and refused by the browser.
 */
export function sendOnwardPage(reply: FastifyReply, path: string) {
  const to = escapeHtml(path);
  return reply
    .header(
      "content-security-policy",
      "default-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${to}"><title>KPI ID</title></head>` +
        `<body><a href="${to}">Continue</a></body></html>`,
    );
}
