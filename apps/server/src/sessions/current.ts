import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { clearSessionCookie, readSessionCookie } from "./cookie.ts";
import { loadSession, loadSessionWithApplications } from "./load.ts";
import type { LoadedSession, SessionTimeouts, SessionWithApplications } from "./store.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The signed-in session, loaded lazily by `currentSession(request)`;
     * undefined before loading, null when there is none.
     */
    session: LoadedSession | null | undefined;
  }
}

type SessionLoader<S extends LoadedSession> = (
  db: Db,
  token: string,
  timeouts: SessionTimeouts,
  now: Date,
) => Promise<S | undefined>;

/** Reads the cookie's session with `load` into the request's slot; a cookie naming no live session is cleared. */
async function loadIntoRequest<S extends LoadedSession>(
  request: FastifyRequest,
  reply: FastifyReply | undefined,
  load: SessionLoader<S>,
): Promise<S | null> {
  const token = readSessionCookie(request);
  const { server } = request;
  const session = token ? await load(server.db, token, server.config.sessions, server.clock()) : undefined;
  if (token && !session && reply) clearSessionCookie(reply);
  request.session = session ?? null;
  return session ?? null;
}

/**
 * The session the request's cookie names, or null. Loaded at most once per
 * request; a cookie that no longer names a live session is cleared.
 */
export async function currentSession(request: FastifyRequest, reply?: FastifyReply): Promise<LoadedSession | null> {
  if (request.session !== undefined) return request.session;
  return loadIntoRequest(request, reply, loadSession);
}

const hasApplications = (session: LoadedSession): session is SessionWithApplications => "applications" in session;

/**
 * The same with the applications the person may open (GET /user, the page). Read in the one statement
 * that finds the session; the slot then holds it for the rest of the request.
 */
export async function currentSessionWithApplications(
  request: FastifyRequest,
  reply?: FastifyReply,
): Promise<SessionWithApplications | null> {
  const loaded = request.session;
  if (loaded === null || (loaded && hasApplications(loaded))) return loaded;
  return loadIntoRequest(request, reply, loadSessionWithApplications);
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
