import { chooseLanguage, type Language } from "@kpi-id/contracts";
import type { KoaContextWithOIDC } from "oidc-provider";
import { isUuid } from "../../model/apps/queries.ts";
import type { FindApplication } from "./clients.ts";

// The provider's own few pages (sign-out confirmation, errors), in the person's language.
// They carry no script, so they work under a strict CSP.

const texts = {
  uk: {
    logoutTitle: "Вийти з KPI ID?",
    logoutQuestion: (client: string) => `${client} просить завершити ваш сеанс KPI ID.`,
    logoutYes: "Так, вийти",
    logoutNo: "Ні, залишитися в системі",
    loggedOutTitle: "Ви вийшли",
    loggedOut: "Сеанс KPI ID завершено.",
    errorTitle: "Помилка входу",
    error: "Застосунок надіслав запит на вхід, який KPI ID не може виконати.",
    otherLanguage: "English",
    sentAddress: "Надіслана адреса перенаправлення:",
    registeredAddresses: "Зареєстровані адреси:",
    ownerNote: "Це бачите лише ви як власник застосунку.",
  },
  en: {
    logoutTitle: "Sign out of KPI ID?",
    logoutQuestion: (client: string) => `${client} asks to end your KPI ID session.`,
    logoutYes: "Yes, sign me out",
    logoutNo: "No, stay signed in",
    loggedOutTitle: "Signed out",
    loggedOut: "Your KPI ID session has ended.",
    errorTitle: "Sign-in error",
    error: "The application sent a sign-in request that KPI ID cannot carry out.",
    otherLanguage: "Українською",
    sentAddress: "Redirect URI sent:",
    registeredAddresses: "Registered ones:",
    ownerNote: "Only you see this, as the application's owner.",
  },
} satisfies Record<Language, unknown>;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The one language order (contracts' chooseLanguage): ui_locales, the web app's i18next cookie, Accept-Language. */
function languageOf(ctx: KoaContextWithOIDC): Language {
  const uiLocales = ctx.oidc?.params?.ui_locales;
  return chooseLanguage({
    requested: typeof uiLocales === "string" ? uiLocales : undefined,
    chosen: ctx.cookies.get("i18next", { signed: false }),
    accepted: ctx.get("accept-language"),
  });
}

// The web app's look (its colours and card), in a few inline rules; the CSP allows inline styles only.
const styles =
  "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;background:#f8f9fc;color:#0f172a;margin:0}" +
  "header{background:#fff;border-bottom:1px solid #e2e8f0;padding:1rem 1.5rem;font-weight:700;color:#1e3a8a}" +
  "main{max-width:28rem;margin:3rem auto;padding:0 1rem}h1{font-size:1.6rem;margin:0 0 1rem}" +
  ".card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgba(0,0,0,.05)}" +
  ".actions{display:flex;gap:.75rem;margin-top:1.25rem;flex-wrap:wrap}" +
  "button{font:inherit;font-size:.9rem;font-weight:500;padding:.6rem 1rem;border-radius:.375rem;cursor:pointer;border:1px solid #e2e8f0;background:#fff;color:#0f172a}" +
  "button.primary{background:#1e3a8a;border-color:#1e3a8a;color:#fff}button:focus-visible{outline:2px solid #1e3a8a;outline-offset:2px}" +
  "code{font-size:.85rem;word-break:break-all}header{display:flex;justify-content:space-between;gap:1rem}" +
  "a.switch{font-weight:500;color:#1e3a8a}.owner{margin-top:1rem;padding-top:1rem;border-top:1px solid #e2e8f0}";

function page(language: Language, title: string, body: string, switchTo = ""): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · KPI ID</title><style>${styles}</style></head><body><header>KPI ID${switchTo}</header><main><h1>${escapeHtml(title)}</h1><div class="card">${body}</div></main></body></html>`;
}

/**
 * The same request in the other language (issue 60): a GET's address with `ui_locales` swapped, which the page
 * reads first. None for a POST (its form cannot be repeated by a link).
 */
function languageSwitch(ctx: KoaContextWithOIDC, language: Language): string {
  if (ctx.method !== "GET") return "";
  const other: Language = language === "uk" ? "en" : "uk";
  const url = new URL(ctx.href);
  url.searchParams.set("ui_locales", other);
  const href = `${url.pathname}${url.search}`;
  return ` <a class="switch" href="${escapeHtml(href)}" lang="${other}" data-testid="oidc-language-switch">${escapeHtml(texts[language].otherLanguage)}</a>`;
}

/** What only the application's signed-in owner is shown of a refused redirect URI: the one sent, the registered ones. */
export interface RedirectUriDetails {
  sent: string;
  registered: string[];
}

function ownerDetails(language: Language, details: RedirectUriDetails | undefined): string {
  if (!details) return "";
  const t = texts[language];
  const registered = details.registered.map((uri) => `<li><code>${escapeHtml(uri)}</code></li>`).join("");
  return (
    `<div class="owner" data-testid="oidc-owner-details"><p>${escapeHtml(t.ownerNote)}</p>` +
    `<p>${escapeHtml(t.sentAddress)} <code>${escapeHtml(details.sent)}</code></p>` +
    `<p>${escapeHtml(t.registeredAddresses)}</p><ul>${registered}</ul></div>`
  );
}

/**
 * The sign-out question, naming the application as the person reads it: its English title for English readers
 * (the provider's client_name is the Ukrainian one).
 */
export function logoutSource(findApplication: FindApplication) {
  return async (ctx: KoaContextWithOIDC, form: string): Promise<void> => {
    const language = languageOf(ctx);
    const t = texts[language];
    const clientId = ctx.oidc.client?.clientId;
    const application = clientId && isUuid(clientId) ? await findApplication(clientId) : undefined;
    const englishTitle = language === "en" ? application?.title_en : undefined;
    const client = englishTitle || ctx.oidc.client?.clientName || "KPI ID";
    ctx.type = "html";
    ctx.body = page(
      language,
      t.logoutTitle,
      `<p>${escapeHtml(t.logoutQuestion(client))}</p>${form}` +
        `<div class="actions"><button class="primary" autofocus type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(t.logoutYes)}</button>` +
        `<button type="submit" form="op.logoutForm">${escapeHtml(t.logoutNo)}</button></div>`,
    );
  };
}

export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  const language = languageOf(ctx);
  const t = texts[language];
  ctx.type = "html";
  ctx.body = page(language, t.loggedOutTitle, `<p>${escapeHtml(t.loggedOut)}</p>`);
}

export async function renderError(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
  forOwner?: RedirectUriDetails,
): Promise<void> {
  const language = languageOf(ctx);
  const t = texts[language];
  ctx.type = "html";
  ctx.body = page(
    language,
    t.errorTitle,
    `<p>${escapeHtml(t.error)}</p><p><code>${escapeHtml(out.error)}</code>${out.error_description ? ` — ${escapeHtml(out.error_description)}` : ""}</p>` +
      ownerDetails(language, forOwner),
    languageSwitch(ctx, language),
  );
}
