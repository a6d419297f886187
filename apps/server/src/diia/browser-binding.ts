import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config/index.ts";
import { hashToken, newToken } from "../crypto/tokens.ts";

/**
 * A Diia sign-in request belongs to the browser that asked for its deep link: GET /api/diia/app-link
 * gives the browser a random binding secret in an HttpOnly cookie and keeps only its hash with the
 * request; GET /api/diia/check-request answers only a caller presenting it. A request id seen in a
 * log, a screenshot or over a shoulder is then worth nothing without the cookie. One secret serves
 * all of a browser's requests (several tabs, QR codes renewed every few minutes).
 */
const baseName = "kpi_id_diia";
const wellFormed = /^[\w-]{43}$/;

/** Lives as long as the longest sign-in: a request's life plus the time its grant may be collected. */
const BINDING_COOKIE_SECONDS = 60 * 60;

function cookieName(config: Config): string {
  return config.secureCookies ? `__Host-${baseName}` : baseName;
}

function presentedSecret(request: FastifyRequest): string | undefined {
  const value = request.cookies[cookieName(request.server.config)];
  return value !== undefined && wellFormed.test(value) ? value : undefined;
}

/** The binding of this browser (made now if it has none, renewed either way), as the hash to store. */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply): Buffer {
  const secret = presentedSecret(request) ?? newToken();
  const { config } = reply.server;
  reply.setCookie(cookieName(config), secret, {
    httpOnly: true,
    // Only the sign-in page's own fetches carry it; no other site's request needs it.
    sameSite: "strict",
    path: "/",
    secure: config.secureCookies,
    maxAge: BINDING_COOKIE_SECONDS,
  });
  return hashToken(secret);
}

/** The hash of the binding the caller presents, if any. */
export function presentedBinding(request: FastifyRequest): Buffer | undefined {
  const secret = presentedSecret(request);
  return secret === undefined ? undefined : hashToken(secret);
}
