import type { AuthMethod } from "@kpi-id/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { audit, requestOrigin } from "../audit/record.ts";
import { readSessionCookie, setSessionCookie } from "./cookie.ts";
import { createSession, deleteSessionByToken } from "./store.ts";

export interface EstablishSessionOptions {
  userId: string;
  authMethod: AuthMethod;
  request: FastifyRequest;
}

/**
 * Signs the person in on this browser: a fresh session and token every time
 * (a session cookie the browser already had is deleted, so a token planted
 * before sign-in is worthless), set as the session cookie on `reply`.
 * Password and Diia sign-in reach it through POST /api/auth/internal; Google calls it directly.
 */
export async function establishSession(
  app: FastifyInstance,
  reply: FastifyReply,
  { userId, authMethod, request }: EstablishSessionOptions,
): Promise<{ sessionId: string }> {
  const previous = readSessionCookie(request);
  if (previous) await deleteSessionByToken(app.db, previous);
  const { ip, userAgent } = requestOrigin(request);
  const { id, token } = await createSession(
    app.db,
    { userId, authMethod, ip, userAgent },
    app.config.sessions,
    app.clock(),
  );
  setSessionCookie(reply, token);
  // Whatever the request had loaded before belongs to the old cookie.
  request.session = undefined;
  await audit(request, { type: "session_start", result: "success", authMethod, userId });
  return { sessionId: id };
}
