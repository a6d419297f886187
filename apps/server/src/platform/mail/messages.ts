import type { Language } from "@kpi-id/contracts";

/** The parts of a message before it is addressed: subject, paragraphs, an optional button. */
export interface MessageContent {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const signature: Record<Language, string> = {
  uk: "KPI ID, єдиний вхід КПІ ім. Ігоря Сікорського",
  en: "KPI ID, single sign-on of Igor Sikorsky Kyiv Polytechnic Institute",
};

/** Plain text and HTML of the same content; every value is escaped in the HTML. */
export function renderMessage(content: MessageContent, language: Language): RenderedMessage {
  const { subject, paragraphs, action } = content;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), "", `— ${signature[language]}`]
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n");
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
    : "";
  const html = [
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    button,
    `<p style="color:#64748b;font-size:14px">${escapeHtml(signature[language])}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
