import type { FastifyReply, FastifyRequest } from "fastify";
import { signOutSessions } from "../../model/sessions/end-sessions.ts";
import { requestOrigin } from "../../platform/http/audit.ts";
import { clearSessionCookie, readSessionCookie } from "../../platform/http/session-cookie.ts";

/** The sessions a browser sign-out ended (their owners, for the entry point's audit rows) and where it goes next. */
export interface BrowserSignOut {
  users: string[];
  /** Set when the browser is to carry a sign-out to applications (SAML's front channel) before `returnTo`. */
  next?: string;
}

/**
 * Signs this browser out, for every protocol's sign-out (KPI ID's own, CAS /logout; OpenID Connect's end_session
 * and a SAML LogoutRequest call signOutSessions themselves, from where they stand): the session its cookie names
 * ends through the one path (model/sessions/end-sessions.ts), so every application it reached is told once, and
 * the cookie is cleared. With `returnTo` the browser can be sent on: `next` is where it goes first.
 */
export async function signOutBrowser(
  request: FastifyRequest,
  reply: FastifyReply,
  returnTo?: string,
): Promise<BrowserSignOut> {
  const token = readSessionCookie(request);
  clearSessionCookie(reply);
  request.session = null;
  if (!token) return { users: [] };
  const { db, clock, signOut } = request.server;
  const ended = await signOutSessions(
    { db, now: clock(), signOut },
    { token },
    { reason: "signed_out", ...requestOrigin(request) },
    { returnTo, cookie: (name) => request.cookies[name] },
  );
  return { users: ended.users, next: ended.browserPath };
}
