const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

const styles = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f6fb;color:#111827}
main{max-width:640px;margin:48px auto;padding:32px;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{margin-top:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px}dt{font-weight:600}
.error{color:#b91c1c}a{color:#1b4fa0}`;

/**
 * A whole page. The demo site runs under a strict CSP of its own (scripts only
 * from the KPI ID origin, styles only with this response's nonce) to show the
 * button needs nothing looser.
 */
export function page(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${styles}</style></head>
<body><main>${body}</main></body></html>`;
}
