import type { GoogleAccount } from "./accounts.ts";

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

const styles = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px;
  font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f1f1f;background:#f0f4f9}
main{width:100%;max-width:480px;background:#fff;border-radius:28px;padding:36px 32px 28px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.sandbox{display:inline-block;margin:0 0 20px;padding:2px 10px;border-radius:999px;background:#fef7e0;color:#7a4f01;font-size:13px}
.logo{font-size:22px;font-weight:600;letter-spacing:-.5px;margin:0 0 8px}
.logo span:nth-child(1),.logo span:nth-child(4){color:#1a73e8}.logo span:nth-child(2),.logo span:nth-child(6){color:#d93025}
.logo span:nth-child(3){color:#e8a200}.logo span:nth-child(5){color:#188038}
h1{font-size:28px;font-weight:400;margin:0 0 4px}
p.lead{margin:0 0 24px;color:#444}
ul{list-style:none;margin:0;padding:0;border-top:1px solid #dadce0}
li{border-bottom:1px solid #dadce0}
button.account{all:unset;box-sizing:border-box;display:flex;gap:14px;align-items:center;width:100%;padding:12px 8px;cursor:pointer;border-radius:8px}
button.account:hover{background:#f1f3f4}
button.account:focus-visible,button.cancel:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}
.avatar{flex:none;width:36px;height:36px;border-radius:50%;display:flex;align-items:center;justify-content:center;
  color:#fff;font-weight:600;background:#5f6368}
.who{display:flex;flex-direction:column;min-width:0}
.name{font-weight:500}.email{color:#444;font-size:14px;overflow-wrap:anywhere}.note{color:#5f6368;font-size:13px}
.unverified .avatar{background:#b06000}.stranger .avatar{background:#8430ce}
.actions{display:flex;justify-content:flex-end;margin-top:20px}
button.cancel{font:inherit;color:#0b57d0;background:none;border:0;padding:8px 12px;border-radius:999px;cursor:pointer}
button.cancel:hover{background:#e8f0fe}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${styles}</style></head>
<body><main>${body}</main></body></html>`;
}

const logo = `<p class="logo" aria-hidden="true"><span>G</span><span>o</span><span>o</span><span>g</span><span>l</span><span>e</span></p>`;

function accountClass(account: GoogleAccount): string {
  if (!account.email_verified) return "account unverified";
  return account.note.startsWith("campus") ? "account" : "account stranger";
}

function accountItem(account: GoogleAccount): string {
  const initial = escapeHtml([...account.name][0] ?? "?");
  return `<li><button type="submit" name="sub" value="${escapeHtml(account.sub)}" class="${accountClass(account)}">
<span class="avatar" aria-hidden="true">${initial}</span>
<span class="who"><span class="name">${escapeHtml(account.name)}</span><span class="email">${escapeHtml(account.email)}</span>
<span class="note">${escapeHtml(account.note)}</span></span></button></li>`;
}

/** Google's "Choose an account" screen, with the demo accounts. */
export function accountChooserPage(uid: string, clientName: string, accounts: GoogleAccount[]): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return layout(
    "Sign in – Google stand-in",
    `<p class="sandbox">Sandbox: a local stand-in for Google</p>${logo}
<h1 id="title">Choose an account</h1>
<p class="lead">to continue to ${escapeHtml(clientName)}</p>
<form method="post" action="${action}/login" aria-labelledby="title"><ul>${accounts.map(accountItem).join("")}</ul></form>
<form method="post" action="${action}/abort" class="actions"><button type="submit" class="cancel">Cancel</button></form>`,
  );
}

export function problemPage(message: string): string {
  return layout(
    "Google stand-in",
    `<p class="sandbox">Sandbox: a local stand-in for Google</p>${logo}
<h1>Something went wrong</h1><p class="lead">${escapeHtml(message)}</p>`,
  );
}
