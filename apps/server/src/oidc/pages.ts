import type { Language } from "@kpi-id/contracts";
import type { KoaContextWithOIDC } from "oidc-provider";
import { languageFromHeader } from "../http/language.ts";

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
  },
} satisfies Record<Language, unknown>;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function languageOf(ctx: KoaContextWithOIDC): Language {
  const uiLocales = ctx.oidc?.params?.ui_locales;
  if (typeof uiLocales === "string") return languageFromHeader(uiLocales.replaceAll(" ", ","));
  return languageFromHeader(ctx.get("accept-language"));
}

function page(language: Language, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
}

export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const language = languageOf(ctx);
  const t = texts[language];
  const client = ctx.oidc.client?.clientName ?? "KPI ID";
  ctx.type = "html";
  ctx.body = page(
    language,
    t.logoutTitle,
    `<p>${escapeHtml(t.logoutQuestion(client))}</p>${form}` +
      `<p><button autofocus type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(t.logoutYes)}</button> ` +
      `<button type="submit" form="op.logoutForm">${escapeHtml(t.logoutNo)}</button></p>`,
  );
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
): Promise<void> {
  const language = languageOf(ctx);
  const t = texts[language];
  ctx.type = "html";
  ctx.body = page(
    language,
    t.errorTitle,
    `<p>${escapeHtml(t.error)}</p><p><code>${escapeHtml(out.error)}</code>${out.error_description ? ` — ${escapeHtml(out.error_description)}` : ""}</p>`,
  );
}
