import { chooseLanguage, type Language } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";

/**
 * The language of a page or an answer for this request, in the one order shared with the web app:
 * what the request names (`requested`, e.g. OpenID Connect ui_locales), the `i18next` cookie, Accept-Language.
 */
export function requestLanguage(request: FastifyRequest, requested?: unknown): Language {
  return chooseLanguage({
    requested: typeof requested === "string" ? requested : undefined,
    chosen: request.cookies?.i18next,
    accepted: request.headers["accept-language"],
  });
}
