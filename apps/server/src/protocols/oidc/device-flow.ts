import {
  chooseLanguage,
  type DeviceForm,
  type DeviceRequest,
  type ErrorCode,
  errorMessages,
  errorStatus,
  type Language,
} from "@kpi-id/contracts";
import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { errors } from "oidc-provider";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { localizedTexts } from "../../model/apps/localized.ts";
import type { Config } from "../../platform/config/index.ts";
import { kpiSessionOf } from "./kpi-session.ts";
import type { ProviderOptions } from "./provider-options.ts";

type DeviceFlowFeature = NonNullable<NonNullable<Configuration["features"]>["deviceFlow"]>;

/** Where a person types a device's code: the web app's page, never the provider's own HTML. */
export function devicePagePath(lang: Language = "uk"): string {
  return `/${lang}/device`;
}

/** The page's address with what it should show: the code to prefill, a result or an error. */
export function devicePageUrl(config: Config, lang: Language, query: Record<string, string | undefined> = {}): string {
  const target = new URL(devicePagePath(lang), config.publicUrl);
  for (const [name, value] of Object.entries(query)) if (value) target.searchParams.set(name, value);
  return target.toString();
}

/** The person's language: the web app's choice (its `i18next` cookie), then the browser's. */
export function personLanguage(ctx: Pick<KoaContextWithOIDC, "cookies" | "get">): Language {
  return chooseLanguage({
    chosen: ctx.cookies.get("i18next", { signed: false }),
    accepted: ctx.get("accept-language"),
  });
}

/** What happened to one request on the person's side, for the guard (device-guard.ts): throttle and audit. */
export type DeviceOutcome = "form" | "not_found" | "found" | "denied" | "confirmed" | "refused";
const outcomes = new WeakMap<object, DeviceOutcome>();
export const deviceOutcomeOf = (ctx: KoaContextWithOIDC) => outcomes.get(ctx.req);
const noteOutcome = (ctx: KoaContextWithOIDC, outcome: DeviceOutcome) => outcomes.set(ctx.req, outcome);

/** The library's re-render errors (by class name, as its own default page tells them apart) as our codes. */
const codeByError: Record<string, ErrorCode> = {
  NotFoundError: "device.code_not_found",
  NoCodeError: "device.code_not_found",
  ExpiredError: "device.code_expired",
  AlreadyUsedError: "device.code_used",
};

function deviceErrorCode(error: Error): ErrorCode {
  if (Number((error as { statusCode?: unknown }).statusCode) >= 500) return "service.internal_error";
  // Anything else the library refuses here is a stale or foreign form: a wrong form token, no session state.
  return codeByError[error.name] ?? "device.form_expired";
}

/** The web page reads the provider's answers as JSON (fetch); a browser that navigated here gets the page. */
const wantsJson = (ctx: KoaContextWithOIDC) => ctx.accepts("html", "json") === "json";

/** The provider's form token for this browser (its session's `state`, made by the library for each form). */
function formToken(ctx: KoaContextWithOIDC): string {
  const state = ctx.oidc.session?.state as { secret?: unknown } | undefined;
  return typeof state?.secret === "string" ? state.secret : "";
}

/** A refusal: our error body to the page's fetch, or the page with the error to a browser that navigated. */
export function answerDeviceError(ctx: KoaContextWithOIDC, config: Config, code: ErrorCode, userCode?: unknown): void {
  const language = personLanguage(ctx);
  if (wantsJson(ctx)) {
    ctx.status = errorStatus[code];
    ctx.body = { code, message: errorMessages[language][code] };
    return;
  }
  ctx.status = 303;
  const prefill = typeof userCode === "string" ? userCode : undefined;
  ctx.redirect(devicePageUrl(config, language, { error: code, user_code: prefill }));
}

function scopesOf(params: unknown): string[] {
  const scope = (params as { scope?: unknown } | undefined)?.scope;
  return typeof scope === "string" ? scope.split(" ").filter((name) => name && name !== "openid") : [];
}

/**
 * RFC 8628 for applications an operator allowed it (clients.ts adds the grant type). Digits in
 * two groups of four: a lecture-hall screen is read aloud and typed on a phone's number pad;
 * 10^8 codes with a short lifetime and the throttle on guessing (device-guard.ts) keep brute force
 * out of reach. The library's three pages are answered for the web app's /{lang}/device: its form
 * token (GET /oidc/device), the request a code stands for (POST with the code), and where the
 * browser goes once the person allowed or denied it (a redirect back to the page).
 */
export function deviceFlowFeature(
  options: Pick<ProviderOptions, "config" | "db" | "caches" | "clock">,
): DeviceFlowFeature {
  const { config } = options;
  const pageUrl = (ctx: KoaContextWithOIDC, query?: Record<string, string | undefined>) =>
    devicePageUrl(config, personLanguage(ctx), query);
  return {
    enabled: true,
    charset: "digits",
    mask: "****-****",
    userCodeInputSource: async (ctx, _form, _out, error) => {
      if (!error) {
        noteOutcome(ctx, "form");
        if (wantsJson(ctx)) {
          const answer: DeviceForm = { xsrf: formToken(ctx) };
          ctx.body = answer;
          return;
        }
        ctx.status = 303;
        ctx.redirect(pageUrl(ctx));
        return;
      }
      if (error.name === "AbortedError") {
        noteOutcome(ctx, "denied");
        ctx.status = 303;
        ctx.redirect(pageUrl(ctx, { result: "denied" }));
        return;
      }
      noteOutcome(ctx, error.name === "NotFoundError" || error.name === "NoCodeError" ? "not_found" : "refused");
      answerDeviceError(ctx, config, deviceErrorCode(error), (error as { userCode?: unknown }).userCode);
    },
    userCodeConfirmSource: async (ctx, _form, client, _deviceInfo, userCode) => {
      noteOutcome(ctx, "found");
      if (!wantsJson(ctx)) {
        // A form posted from elsewhere than the web page: the page shows the request instead.
        ctx.status = 303;
        ctx.redirect(pageUrl(ctx, { user_code: userCode }));
        return;
      }
      const language = personLanguage(ctx);
      const application = await cachedApplicationById(options.caches.applications, options.db, client.clientId);
      const session = await kpiSessionOf(ctx, options);
      const answer: DeviceRequest = {
        xsrf: formToken(ctx),
        userCode,
        application: application
          ? localizedTexts(application, language)
          : { title: client.clientName ?? client.clientId, description: "" },
        scopes: scopesOf(ctx.oidc.entities.DeviceCode?.params),
        person: { name: session?.user.full_name ?? "" },
        access: session ? await hasApplicationAccess(options.db, session.userId, client.clientId) : false,
        // The consent screen's mark (issue 56): a device's application may be one operators have not reviewed.
        ...(application && { reviewed: application.lifecycle === "live" }),
      };
      ctx.body = answer;
    },
    successSource: async (ctx) => {
      noteOutcome(ctx, "confirmed");
      ctx.status = 303;
      ctx.redirect(pageUrl(ctx, { result: "allowed" }));
    },
  };
}

/**
 * The device's full link (`verification_uri_complete`, with `user_code`) makes the library answer
 * with a self-submitting form that leads to its own confirm page; the person goes to the web
 * app's page instead, the code kept in the address.
 */
const deviceRoutes: ReadonlySet<string> = new Set(["code_verification", "device_resume"]);

export function sendDeviceLinksToDevicePage(provider: Provider, config: Config): void {
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      // `/device` or `/device/{uid}` without a browser session: the library tries to save a session
      // it never stored and throws a TypeError (a 500); a stale or made-up request (fuzz.test.ts).
      if (deviceRoutes.has(ctx.oidc?.route ?? "") && error instanceof TypeError)
        throw new errors.SessionNotFound("no device sign-in is under way");
      throw error;
    }
    if (ctx.method !== "GET" || ctx.oidc?.route !== "code_verification") return;
    const userCode = ctx.oidc.params?.user_code;
    if (typeof userCode !== "string" || !userCode) return;
    ctx.status = 303;
    ctx.redirect(devicePageUrl(config, personLanguage(ctx), { user_code: userCode }));
  });
}
