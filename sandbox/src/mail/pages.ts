import type { FastifyInstance } from "fastify";
import type { Inbox, ReceivedMail } from "./inbox.ts";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:0 auto;padding:16px;color:#0f172a}
a{color:#1d4ed8}li{margin:8px 0}pre{white-space:pre-wrap;background:#f1f5f9;padding:12px;border-radius:8px}
iframe{width:100%;min-height:420px;border:1px solid #cbd5e1;border-radius:8px}.meta{color:#475569}</style></head>
<body><main>${body}</main></body></html>`;
}

function listItem(mail: ReceivedMail): string {
  return `<li><a href="/messages/${mail.id}">${escapeHtml(mail.subject || "(no subject)")}</a>
<span class="meta"> to ${escapeHtml(mail.to.join(", "))}, ${escapeHtml(mail.receivedAt)}</span></li>`;
}

/** The inbox page (newest first), one page per message (text and HTML), and the same as JSON. */
export function registerInboxPages(app: FastifyInstance, inbox: Inbox): void {
  app.get("/", async (_request, reply) => {
    const items = [...inbox.messages].reverse().map(listItem).join("\n");
    const body = `<h1>KPI ID sandbox mail</h1>
<p>Every message KPI ID sends in sandbox mode lands here; nothing leaves this machine.</p>
${items ? `<ul>${items}</ul>` : "<p>No messages yet.</p>"}`;
    return reply.type("text/html; charset=utf-8").send(page("Sandbox mail", body));
  });

  app.get<{ Params: { id: string } }>("/messages/:id", async (request, reply) => {
    const mail = inbox.messages.find((each) => String(each.id) === request.params.id);
    if (!mail)
      return reply.code(404).type("text/html; charset=utf-8").send(page("Not found", "<h1>No such message</h1>"));
    const body = `<p><a href="/">← Inbox</a></p><h1>${escapeHtml(mail.subject)}</h1>
<p class="meta">From ${escapeHtml(mail.from)} to ${escapeHtml(mail.to.join(", "))}, ${escapeHtml(mail.receivedAt)}</p>
<h2>Plain text</h2><pre data-testid="mail-text">${escapeHtml(mail.text)}</pre>
<h2>HTML</h2><iframe title="The message as HTML" sandbox srcdoc="${escapeHtml(mail.html)}"></iframe>`;
    return reply.type("text/html; charset=utf-8").send(page(mail.subject, body));
  });

  app.get<{ Querystring: { to?: string } }>("/api/messages", async (request) => {
    const { to } = request.query;
    return { messages: to ? inbox.to(to) : inbox.messages };
  });
}
