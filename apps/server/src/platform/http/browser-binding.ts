import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config/index.ts";
import { hashToken, newToken } from "../crypto/tokens.ts";

export interface BrowserBinding {
  /** The binding of this browser (made now if it has none, renewed either way), as the hash to store. */
  bind(request: FastifyRequest, reply: FastifyReply): Buffer;
  /** The hash of the binding the caller presents, if any. */
  presented(request: FastifyRequest): Buffer | undefined;
}

const wellFormed = /^[\w-]{43}$/;

/**
 * Something kept on the server for one browser (a Diia request, a WebAuthn challenge): the browser
 * holds a random secret in an HttpOnly cookie and the server keeps only its hash with the thing,
 * answering only a caller presenting it. An id seen in a log or over a shoulder is then worth nothing.
 */
export function browserBinding(baseName: string, maxAgeSeconds: number): BrowserBinding {
  const cookieName = (config: Config) => (config.secureCookies ? `__Host-${baseName}` : baseName);
  const presentedSecret = (request: FastifyRequest) => {
    const value = request.cookies[cookieName(request.server.config)];
    return value !== undefined && wellFormed.test(value) ? value : undefined;
  };
  return {
    bind(request, reply) {
      const secret = presentedSecret(request) ?? newToken();
      const { config } = reply.server;
      reply.setCookie(cookieName(config), secret, {
        httpOnly: true,
        // Only KPI ID's own pages' fetches carry it; no other site's request needs it.
        sameSite: "strict",
        path: "/",
        secure: config.secureCookies,
        maxAge: maxAgeSeconds,
      });
      return hashToken(secret);
    },
    presented(request) {
      const secret = presentedSecret(request);
      return secret === undefined ? undefined : hashToken(secret);
    },
  };
}
