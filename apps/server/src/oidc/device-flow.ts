import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import type { Config } from "../config/index.ts";

type DeviceFlowFeature = NonNullable<NonNullable<Configuration["features"]>["deviceFlow"]>;

/** Where a person types a device's code: the web app's page, never the provider's own HTML. */
export function devicePagePath(lang: "uk" | "en" = "uk"): string {
  return `/${lang}/device`;
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
      ctx.redirect(new URL(devicePagePath(), config.publicUrl).toString());
    },
  };
}
