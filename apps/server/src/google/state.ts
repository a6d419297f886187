import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Config } from "../config/index.ts";

/**
 * `state` is 128 random bits and nothing else: where the browser continues
 * after the sign-in is kept on the server's side (sessions/continue-to.ts).
 */
export function newState(): string {
  return randomBytes(16).toString("base64url");
}

/** What the browser must bring back to /google/auth: it ties the answer to the browser that asked. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
  /** Unix seconds after which the server refuses it, whatever the browser kept. */
  expiresAt: number;
}

const pendingSchema = z.object({
  state: z.string().min(1).max(512),
  codeVerifier: z.string().min(43).max(128),
  nonce: z.string().min(1).max(256),
  expiresAt: z.number().int().positive(),
});

/** Long enough to pick an account and type a password at Google, short enough to be useless later. */
export const PENDING_SIGN_IN_SECONDS = 600;

export function pendingCookieName(config: Config): string {
  return config.secureCookies ? "__Host-kpi_id_google" : "kpi_id_google";
}

function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: config.secureCookies };
}

export function setPendingCookie(reply: FastifyReply, pending: PendingSignIn): void {
  const { config } = reply.server;
  reply.setCookie(pendingCookieName(config), JSON.stringify(pending), {
    ...cookieOptions(config),
    signed: true,
    maxAge: PENDING_SIGN_IN_SECONDS,
  });
}

export function clearPendingCookie(reply: FastifyReply): void {
  const { config } = reply.server;
  reply.clearCookie(pendingCookieName(config), cookieOptions(config));
}

/** The pending sign-in this browser started, if its cookie is present, ours (signature) and well-formed. */
export function readPendingCookie(request: FastifyRequest, now: Date): PendingSignIn | undefined {
  const raw = request.cookies[pendingCookieName(request.server.config)];
  if (!raw || raw.length > 2048) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  try {
    const parsed = pendingSchema.safeParse(JSON.parse(unsigned.value));
    if (!parsed.success || parsed.data.expiresAt * 1000 <= now.getTime()) return undefined;
    return parsed.data;
  } catch {
    return undefined;
  }
}
