import type { FastifyInstance } from "fastify";
import { toAppError } from "./error-handler.ts";
import { requestLanguage } from "./language.ts";
import { isNavigation } from "./navigation.ts";

/** Where a refused SAML message leaves the person: a translated page that says what to do (web consent route). */
export const samlErrorPagePath = (language: string, code: string) =>
  `/${language}/consent?${new URLSearchParams({ samlError: code })}`;

/**
 * A person whose service provider sent something KPI ID refuses (an unknown SP, a bad signature, an expired
 * request) arrives here in their browser: they see a page in their language with the reason, not the JSON
 * body a script would get. Scripts and tests without `Accept: text/html` still get the JSON error, and
 * 5xx answers go through the application's handler as before (logged there).
 */
export function showRefusalsAsPage(scope: FastifyInstance): void {
  const applicationHandler = scope.errorHandler;
  scope.setErrorHandler(function samlRefusalPage(error, request, reply) {
    const appError = toAppError(error);
    if (!isNavigation(request) || appError.status >= 500) return applicationHandler.call(this, error, request, reply);
    request.log.info({ code: appError.code }, "request refused");
    return reply
      .header("cache-control", "no-store")
      .redirect(samlErrorPagePath(requestLanguage(request), appError.code), 303);
  });
}
