import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";
import type { LoadedSession } from "./store.ts";

/**
 * A sensitive change needs a sign-in at most `REAUTH_MAX_AGE_SECONDS` ago (every sign-in starts
 * a new session, so the session's start is the sign-in time); otherwise 403 `auth.reauth_required`,
 * which the web answers by asking the person to sign in again.
 */
export function requireRecentSignIn(request: FastifyRequest, session: LoadedSession): void {
  const { config, clock } = request.server;
  const ageMs = clock().getTime() - session.createdAt.getTime();
  if (ageMs > config.reauthMaxAgeSeconds * 1000) throw new AppError("auth.reauth_required");
}
