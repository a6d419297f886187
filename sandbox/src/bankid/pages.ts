import type { StandInBank } from "./banks.ts";
import { type BankIdPersona, bankIdPersonas } from "./personas.ts";

// The stand-in's authorize page: NBU's bank chooser (when KPI ID named no bank), then the bank's
// "who are you" page with the personas and a cancel button. Plain HTML, both languages side by side.

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b}
a.bank,button{display:flex;align-items:center;gap:.75rem;width:100%;margin:.5rem 0;padding:.75rem;border:1px solid #c8c8c8;border-radius:.5rem;background:#fff;font:inherit;text-align:left;cursor:pointer;color:inherit;text-decoration:none}
button.cancel{justify-content:center;background:#f3f3f3}
img{width:2rem;height:2rem}small{color:#555}
</style></head><body>${body}</body></html>`;
}

/** NBU's chooser: each workable bank continues the same authorize request with its bank_id. */
export function bankChooserPage(banks: StandInBank[], query: URLSearchParams): string {
  const links = banks
    .filter((bank) => bank.workable)
    .map((bank) => {
      const next = new URLSearchParams(query);
      next.set("bank_id", bank.id);
      return `<a class="bank" data-bank="${escapeHtml(bank.id)}" href="?${escapeHtml(next.toString())}"><img alt="" src="/logos/${escapeHtml(bank.id)}.svg">${escapeHtml(bank.name)}</a>`;
    })
    .join("");
  return page("BankID НБУ", `<h1>BankID НБУ</h1><p>Оберіть банк / Choose your bank</p>${links}`);
}

function personaButton(persona: BankIdPersona): string {
  return `<button name="persona" value="${escapeHtml(persona.id)}" data-persona="${escapeHtml(persona.id)}">${escapeHtml(persona.label.uk)}<br><small>${escapeHtml(persona.label.en)}</small></button>`;
}

/** The bank's page: who signs in (a persona), or cancel. Posts back to the stand-in. */
export function personaPage(bank: StandInBank, query: URLSearchParams): string {
  const hidden = [...query.entries()]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const body =
    `<h1><img alt="" src="/logos/${escapeHtml(bank.id)}.svg"> ${escapeHtml(bank.name)}</h1>` +
    `<p>Пісочниця BankID НБУ: хто входить? / BankID NBU sandbox: who signs in?</p>` +
    `<form method="post" action="/v1/bank/oauth2/authorize">${hidden}${bankIdPersonas
      .filter((persona) => persona.id !== "cancelled")
      .map(personaButton)
      .join("")}` +
    `<button class="cancel" name="persona" value="cancelled" data-persona="cancelled">Скасувати / Cancel</button></form>`;
  return page(bank.name, body);
}

export function errorPage(message: string): string {
  return page("BankID НБУ", `<h1>BankID НБУ</h1><p>${escapeHtml(message)}</p>`);
}
