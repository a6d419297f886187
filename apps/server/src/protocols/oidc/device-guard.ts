import { createHmac } from "node:crypto";
import { requestedLanguage } from "@kpi-id/contracts";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { throttleAddress } from "../../platform/throttle/address.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import { confirmFailure, settleSuccess, type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";
import type { OidcAuditSink } from "./audit.ts";
import { answerDeviceError, deviceOutcomeOf, devicePageUrl } from "./device-flow.ts";
import { kpiSessionOf } from "./kpi-session.ts";
import type { ProviderOptions } from "./provider-options.ts";

/**
 * Counters for typing device codes: the signed-in person (only a signed-in person may try one), the
 * browser's address and everyone together. Every key only slows down, never locks (throttle/policy.ts).
 */
export function deviceCodeThrottleKeys(secret: string, who: { userId: string; address: string }): ThrottleKey[] {
  const person = createHmac("sha256", secret).update(`device-code\0${who.userId}`, "utf8").digest("base64url");
  return [
    { key: `device-code-person:${person}`, rule: throttlePolicy.deviceCodePerson },
    { key: `device-code-ip:${who.address}`, rule: throttlePolicy.deviceCodeIp },
    { key: "device-code-all", rule: throttlePolicy.deviceCodeAll },
  ];
}

type Options = Pick<ProviderOptions, "config" | "db" | "clock">;

/**
 * POST /oidc/device (a code typed, confirmed or denied) needs a KPI ID session and a free slot on the
 * throttle; a code that does not exist counts as a failure, any real code gives the attempt back.
 */
async function guardCodeEntry(ctx: KoaContextWithOIDC, next: () => Promise<unknown>, options: Options) {
  const { config, db, clock } = options;
  const session = await kpiSessionOf(ctx, options);
  if (!session) {
    answerDeviceError(ctx, config, "auth.not_authenticated");
    return;
  }
  const address = throttleAddress(ctx.ip, config.throttleIpv6PrefixLength);
  const keys = deviceCodeThrottleKeys(config.sessionSecret, { userId: session.userId, address });
  const decision = await takeAttempt(db, keys, clock());
  if (!decision.allowed) {
    ctx.set("retry-after", String(Math.ceil(decision.retryAfterSeconds)));
    answerDeviceError(ctx, config, "device.too_many_attempts");
    return;
  }
  await next();
  if (deviceOutcomeOf(ctx) === "not_found") await confirmFailure(db, keys, clock());
  else await settleSuccess(db, keys);
}

/** The device's addresses name the web app's page in the device's language (`ui_locales`), not the provider's form. */
function pointDeviceAtPage(ctx: KoaContextWithOIDC, options: Options): void {
  const body = ctx.body as { user_code?: unknown; verification_uri?: unknown } | undefined;
  if (ctx.status !== 200 || typeof body?.user_code !== "string") return;
  const uiLocales = ctx.oidc.params?.ui_locales;
  const language = requestedLanguage(typeof uiLocales === "string" ? uiLocales : undefined) ?? "uk";
  ctx.body = {
    ...body,
    verification_uri: devicePageUrl(options.config, language),
    verification_uri_complete: devicePageUrl(options.config, language, { user_code: body.user_code }),
  };
}

/** One audit row when the person allows a device (its sign-in) or denies it, with the application. */
async function auditDeviceAnswer(ctx: KoaContextWithOIDC, options: Options, audit: OidcAuditSink) {
  const outcome = deviceOutcomeOf(ctx);
  if (outcome !== "confirmed" && outcome !== "denied") return;
  const session = await kpiSessionOf(ctx, options);
  const userAgent = ctx.get("user-agent");
  await audit({
    type: outcome === "confirmed" ? "oidc_device_confirmed" : "oidc_device_denied",
    result: outcome === "confirmed" ? "success" : "failure",
    authMethod: session?.authMethod,
    userId: (outcome === "confirmed" ? ctx.oidc.session?.accountId : undefined) ?? session?.userId ?? null,
    applicationId: ctx.oidc.client?.clientId ?? ctx.oidc.entities?.DeviceCode?.clientId ?? null,
    reason: outcome === "denied" ? "the person declined" : undefined,
    ip: ctx.ip,
    userAgent: userAgent || undefined,
  });
}

/** The device flow's own rules around the library's routes: the throttle, the device's addresses, the audit. */
export function guardDeviceFlow(provider: Provider, options: Options & { audit: OidcAuditSink }): void {
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    if (ctx.method === "POST" && ctx.path === "/device") await guardCodeEntry(ctx, next, options);
    else await next();
    const route = ctx.oidc?.route;
    if (route === "device_authorization") pointDeviceAtPage(ctx, options);
    if (route === "code_verification" || route === "device_resume")
      await auditDeviceAnswer(ctx, options, options.audit);
  });
}
