import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { errors } from "oidc-provider";
import type { Config } from "../config/index.ts";

type DeviceFlowFeature = NonNullable<NonNullable<Configuration["features"]>["deviceFlow"]>;

/** Where a person types a device's code: the web app's page, never the provider's own HTML. */
export function devicePagePath(lang: "uk" | "en" = "uk"): string {
  return `/${lang}/device`;
}

function devicePageUrl(config: Config, userCode?: unknown): string {
  const target = new URL(devicePagePath(), config.publicUrl);
  if (typeof userCode === "string" && userCode) target.searchParams.set("user_code", userCode);
  return target.toString();
}

/**
 * RFC 8628 for applications an operator allowed it (clients.ts adds the grant type). Digits in
 * two groups of four: a lecture-hall screen is read aloud and typed on a phone's number pad;
 * 10^8 codes with a short lifetime and the throttle on guessing keep brute force out of reach.
 * The provider's user-code page only sends the browser on to the web app's page.
 */
export function deviceFlowFeature(config: Config): DeviceFlowFeature {
  return {
    enabled: true,
    charset: "digits",
    mask: "****-****",
    userCodeInputSource: async (ctx: KoaContextWithOIDC) => {
      ctx.status = 303;
      ctx.redirect(devicePageUrl(config));
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
    if (!userCode) return;
    ctx.status = 303;
    ctx.redirect(devicePageUrl(config, userCode));
  });
}
