import type { PhonePerson } from "./people.ts";
import type { OfferRequest } from "./state.ts";

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

const styles = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;justify-content:center;padding:24px 16px;
  font:16px/1.45 "e-Ukraine",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#000;
  background:linear-gradient(160deg,#c5d9e5 0%,#e3e0ec 55%,#d9e8dc 100%)}
main{width:100%;max-width:400px}
.top{display:flex;align-items:center;justify-content:space-between;margin-bottom:20px}
.logo{font-size:28px;font-weight:700;letter-spacing:-1px}
.sandbox{padding:2px 10px;border-radius:999px;background:#000;color:#fff;font-size:12px}
.card{background:#fff;border-radius:24px;padding:24px 20px;margin-bottom:16px}
h1{font-size:22px;margin:0 0 8px;line-height:1.2}
.service{font-weight:600}
.muted{color:#555;font-size:14px;margin:0}
fieldset{border:0;padding:0;margin:0}
legend{font-weight:600;margin-bottom:8px}
label{display:flex;gap:12px;align-items:flex-start;padding:12px 4px;border-top:1px solid #eee;cursor:pointer}
label:first-of-type{border-top:0}
input[type=radio]{margin-top:4px;width:20px;height:20px;accent-color:#000;flex:none}
.name{display:block;font-weight:500}.note{display:block;color:#666;font-size:13px}
.buttons{display:flex;flex-direction:column;gap:10px}
button{font:inherit;font-weight:600;border-radius:40px;padding:14px;cursor:pointer;border:2px solid #000}
button.primary{background:#000;color:#fff}button.secondary{background:transparent;color:#000}
button:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}
.result{text-align:center}.result .icon{font-size:48px}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${styles}</style></head>
<body><main><div class="top"><span class="logo">Дія</span><span class="sandbox">пісочниця · sandbox</span></div>
${body}</main></body></html>`;
}

function personOption(person: PhonePerson, index: number): string {
  return `<label><input type="radio" name="person" value="${escapeHtml(person.id)}"${index === 0 ? " checked" : ""}>
<span><span class="name">${escapeHtml(person.fullName)}</span><span class="note">${escapeHtml(person.note)}</span></span></label>`;
}

/** The consent screen Diia shows after the deep link opens: who asks, who signs. */
export function consentPage(request: OfferRequest, people: PhonePerson[]): string {
  return layout(
    "Дія · Diia ID",
    `<div class="card"><h1>Запит на авторизацію</h1>
<p><span class="service" data-testid="requesting-service">${escapeHtml(request.branch.customFullName)}</span>
просить підтвердити вашу особу за допомогою Дія.Підпису.</p>
<p class="muted">${escapeHtml(request.offer.name)} · ${escapeHtml(request.branch.name)}</p></div>
<form method="post" class="card"><fieldset><legend>Хто ви? (демо-особи пісочниці)</legend>
${people.map(personOption).join("\n")}</fieldset>
<div class="buttons" style="margin-top:16px">
<button class="primary" type="submit" name="action" value="confirm">Підтвердити</button>
<button class="secondary" type="submit" name="action" value="decline">Відхилити</button></div></form>`,
  );
}

/** What the phone shows after the decision; the browser learns the outcome by polling the product. */
export function resultPage(outcome: "sent" | "declined" | "refused" | "gone", detail = ""): string {
  const texts = {
    sent: ["✓", "Підпис надіслано", "Поверніться до браузера: вхід завершиться там."],
    declined: ["✕", "Запит відхилено", "Нічого не надіслано."],
    refused: ["!", "Сервіс не прийняв підпис", "Вхід не вдався. Спробуйте ще раз у браузері."],
    gone: ["!", "Запит застарів або вже використаний", "Оновіть QR-код у браузері і відскануйте його знову."],
  } as const;
  const [icon, title, text] = texts[outcome];
  return layout(
    `Дія · ${title}`,
    `<div class="card result" data-testid="phone-result" data-outcome="${outcome}"><div class="icon" aria-hidden="true">${icon}</div>
<h1>${escapeHtml(title)}</h1><p class="muted">${escapeHtml(text)}</p>${detail ? `<p class="muted">${escapeHtml(detail)}</p>` : ""}</div>`,
  );
}
