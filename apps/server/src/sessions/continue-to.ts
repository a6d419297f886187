import { type Language, oidcInteractionPath } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Config } from "../config/index.ts";

/**
 * Where the browser goes once the person has signed in. Kept on the server's
 * side (a signed, short-lived HttpOnly cookie), never in the page's address
 * or storage: the browser carries it without being able to read or change it.
 */
export const continueToSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("apps") }),
  z.object({ kind: z.literal("application"), appId: z.uuid() }),
  z.object({ kind: z.literal("oidc"), uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
]);
export type ContinueTo = z.infer<typeof continueToSchema>;

const pendingSchema = z.object({ continueTo: continueToSchema, expiresAt: z.number().int().positive() });

/** Long enough to sign in at Google or with Diia, short enough that a forgotten one does not surprise later. */
export const PENDING_CONTINUE_SECONDS = 600;

export function continueCookieName(config: Config): string {
  return config.secureCookies ? "__Host-kpi_id_continue" : "kpi_id_continue";
}

function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: config.secureCookies };
}

/** The page a sign-in continues to. */
export function destinationOf(continueTo: ContinueTo, language: Language): string {
  switch (continueTo.kind) {
    case "apps":
      return `/${language}/apps`;
    case "application":
      return `/${language}/apps?appId=${encodeURIComponent(continueTo.appId)}`;
    case "oidc":
      return `${oidcInteractionPath}/${encodeURIComponent(continueTo.uid)}`;
  }
}

/** Remembers where to continue after the sign-in this browser is about to make. */
export function rememberContinueTo(reply: FastifyReply, continueTo: ContinueTo): void {
  const { config, clock } = reply.server;
  const expiresAt = Math.floor(clock().getTime() / 1000) + PENDING_CONTINUE_SECONDS;
  reply.setCookie(continueCookieName(config), JSON.stringify({ continueTo, expiresAt }), {
    ...cookieOptions(config),
    signed: true,
    maxAge: PENDING_CONTINUE_SECONDS,
  });
}

/** Where this browser's pending sign-in continues to, if its cookie is ours (signature), well-formed and fresh. */
export function readContinueTo(request: FastifyRequest): ContinueTo | undefined {
  const raw = request.cookies[continueCookieName(request.server.config)];
  if (!raw || raw.length > 1024) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  try {
    const parsed = pendingSchema.safeParse(JSON.parse(unsigned.value));
    if (!parsed.success || parsed.data.expiresAt * 1000 <= request.server.clock().getTime()) return undefined;
    return parsed.data.continueTo;
  } catch {
    return undefined;
  }
}

/** A pending "continue to" serves one sign-in. */
export function forgetContinueTo(reply: FastifyReply): void {
  reply.clearCookie(continueCookieName(reply.server.config), cookieOptions(reply.server.config));
}

/** Takes (reads and forgets) where this browser continues to after signing in; the apps list when nothing waits. */
export function takeContinueTo(request: FastifyRequest, reply: FastifyReply): ContinueTo {
  const continueTo = readContinueTo(request);
  if (continueTo) forgetContinueTo(reply);
  return continueTo ?? { kind: "apps" };
}
