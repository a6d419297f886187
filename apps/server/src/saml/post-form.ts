import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";

const submitScript = "document.forms[0].submit();";
const scriptHash = `'sha256-${createHash("sha256").update(submitScript).digest("base64")}'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The HTTP-POST binding: a page whose form the browser submits to the SP at
 * once (a button when scripts are off). The page's CSP allows exactly that
 * script and a form posting to that one address.
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
      `default-src 'none'; script-src ${scriptHash}; form-action ${origin}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>KPI ID</title></head><body>` +
        `<form method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>` +
        `<script>${submitScript}</script></body></html>`,
    );
}
