import { isLanguage, type Language } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { languageFromHeader } from "../http/language.ts";

/** The language of the page a browser navigation lands on: the web app's i18next cookie, then the header. */
export function pageLanguage(request: FastifyRequest): Language {
  // i18next may store a regional tag such as en-US; the page paths use the base language.
  const chosen = request.cookies.i18next?.toLowerCase().split("-")[0];
  return isLanguage(chosen) ? chosen : languageFromHeader(request.headers["accept-language"]);
}
