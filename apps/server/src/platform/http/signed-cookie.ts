import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Config } from "../config/index.ts";

/**
 * Short-lived state a browser carries for the server between two of its requests (a pending
 * sign-in): JSON, signed with the session secret, HttpOnly. The value holds its own `expiresAt`
 * (Unix seconds), so the server refuses it when due whatever the browser kept.
 */
export interface SignedCookie<T extends { expiresAt: number }> {
  name(config: Config): string;
  set(reply: FastifyReply, value: T, maxAgeSeconds: number): void;
  read(request: FastifyRequest): T | undefined;
  clear(reply: FastifyReply): void;
}

function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: config.secureCookies };
}

/** Over https `__Host-` binds the cookie to this host and Path=/. */
export function signedCookie<T extends { expiresAt: number }>(
  baseName: string,
  schema: z.ZodType<T>,
  maxLength = 2048,
): SignedCookie<T> {
  const name = (config: Config) => (config.secureCookies ? `__Host-${baseName}` : baseName);
  return {
    name,
    set(reply, value, maxAgeSeconds) {
      const { config } = reply.server;
      reply.setCookie(name(config), JSON.stringify(value), {
        ...cookieOptions(config),
        signed: true,
        maxAge: maxAgeSeconds,
      });
    },
    read(request) {
      const raw = request.cookies[name(request.server.config)];
      if (!raw || raw.length > maxLength) return undefined;
      const unsigned = request.unsignCookie(raw);
      if (!unsigned.valid || unsigned.value === null) return undefined;
      try {
        const parsed = schema.safeParse(JSON.parse(unsigned.value));
        if (!parsed.success || parsed.data.expiresAt * 1000 <= request.server.clock().getTime()) return undefined;
        return parsed.data;
      } catch {
        return undefined;
      }
    },
    clear(reply) {
      reply.clearCookie(name(reply.server.config), cookieOptions(reply.server.config));
    },
  };
}
