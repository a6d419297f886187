import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config/index.ts";

/**
 * Over https the `__Host-` prefix makes browsers refuse the cookie unless it is
 * Secure, host-only and for Path=/, so a sibling subdomain cannot plant one.
 */
export function sessionCookieName(config: Config): string {
  return config.secureCookies ? "__Host-kpi_id_session" : "kpi_id_session";
}

export function sessionCookieOptions(config: Config): CookieSerializeOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: config.secureCookies };
}

export function readSessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[sessionCookieName(request.server.config)];
  // Tokens are 43 base64url characters; anything else cannot be one of ours.
  return value && value.length <= 128 ? value : undefined;
}

export function clearSessionCookie(reply: FastifyReply): void {
  const { config } = reply.server;
  reply.clearCookie(sessionCookieName(config), sessionCookieOptions(config));
}
