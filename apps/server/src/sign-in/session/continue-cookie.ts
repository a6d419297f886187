import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { type ContinueTo, continueToSchema } from "../../model/sessions/continue-to.ts";
import { signedCookie } from "../../platform/http/signed-cookie.ts";

const pendingSchema = z.object({ continueTo: continueToSchema, expiresAt: z.number().int().positive() });

/** Long enough to sign in at Google or with Diia, short enough that a forgotten one does not surprise later. */
export const PENDING_CONTINUE_SECONDS = 600;

// Room for an application's state and redirectUri, percent-encoded, within a browser's 4 KiB a cookie.
const continueCookie = signedCookie("kpi_id_continue", pendingSchema, 3800);

/** Remembers where to continue after the sign-in this browser is about to make. */
export function rememberContinueTo(reply: FastifyReply, continueTo: ContinueTo): void {
  const expiresAt = Math.floor(reply.server.clock().getTime() / 1000) + PENDING_CONTINUE_SECONDS;
  continueCookie.set(reply, { continueTo, expiresAt }, PENDING_CONTINUE_SECONDS);
}

/** Takes (reads and forgets) where this browser continues to after signing in; the apps list when nothing waits. */
export function takeContinueTo(request: FastifyRequest, reply: FastifyReply): ContinueTo {
  const pending = continueCookie.read(request);
  if (pending) continueCookie.clear(reply);
  return pending?.continueTo ?? { kind: "apps" };
}

/** Where this browser's waiting sign-in continues to, read and left in place (the sign-in page names it). */
export function peekContinueTo(request: FastifyRequest): ContinueTo | undefined {
  return continueCookie.read(request)?.continueTo;
}

/** Whether a sign-in's continuation waits in this browser (left in place: a later step takes it). */
export function hasPendingContinueTo(request: FastifyRequest): boolean {
  return continueCookie.read(request) !== undefined;
}
