import { isLanguage, type Language } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { languageFromHeader } from "../http/language.ts";

/** The language of the page a browser navigation lands on: the web app's i18next cookie, then the header. */
export function pageLanguage(request: FastifyRequest): Language {
  const chosen = request.cookies.i18next;
  return isLanguage(chosen) ? chosen : languageFromHeader(request.headers["accept-language"]);
}
