import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loadSessionWithApplications } from "../../model/admission/with-access.ts";
import { loadSession } from "../../model/sessions/load.ts";
import type { LoadedSession, SessionWithApplications } from "../../model/sessions/store.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import { AppError } from "../../platform/errors.ts";
import { clearSessionCookie, readSessionCookie } from "../../platform/http/session-cookie.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The signed-in session, loaded lazily by `currentSession(request)`;
     * undefined before loading, null when there is none.
     */
    session: LoadedSession | null | undefined;
  }
}

/**
 * The session the request's cookie names, or null. Loaded at most once per
 * request; a cookie that no longer names a live session is cleared.
 */
export async function currentSession(request: FastifyRequest, reply?: FastifyReply): Promise<LoadedSession | null> {
  if (request.session !== undefined) return request.session;
  const token = readSessionCookie(request);
  const { server } = request;
  const session = token ? await loadSession(server.db, token, server.config.sessions, server.clock()) : undefined;
  if (token && !session && reply) clearSessionCookie(reply);
  request.session = session ?? null;
  return session ?? null;
}

const hasApplications = (session: LoadedSession): session is SessionWithApplications => "applications" in session;

/**
 * The same with the applications the person may open (GET /user, the page). Read in the one statement
 * that finds the session, or from this instance's cache of such answers (cache.ts); the slot then holds it
 * for the rest of the request.
 */
export async function currentSessionWithApplications(
  request: FastifyRequest,
  reply?: FastifyReply,
): Promise<SessionWithApplications | null> {
  const loaded = request.session;
  if (loaded === null || (loaded && hasApplications(loaded))) return loaded;
  const token = readSessionCookie(request);
  if (!token) {
    request.session = null;
    return null;
  }
  const { server } = request;
  const { sessionCache } = server;
  const key = hashToken(token).toString("base64");
  const now = server.clock();
  const cached = sessionCache.get(key, now.getTime());
  if (cached) {
    request.session = cached;
    return cached;
  }
  const mark = sessionCache.mark();
  const live = await loadSessionWithApplications(server.db, token, server.config.sessions, now);
  if (!live) {
    if (reply) clearSessionCookie(reply);
    request.session = null;
    return null;
  }
  sessionCache.store(key, live.session, live.validUntil.getTime(), mark, now.getTime());
  request.session = live.session;
  return live.session;
}

/** The signed-in session, or a 401 `auth.not_authenticated`. */
export async function requireSession(request: FastifyRequest, reply?: FastifyReply): Promise<LoadedSession> {
  const session = await currentSession(request, reply);
  if (!session) throw new AppError("auth.not_authenticated");
  return session;
}

/** Gives every request a `session` slot; routes fill it through currentSession/requireSession. */
export function registerSessions(app: FastifyInstance): void {
  app.decorateRequest("session", undefined);
}
