import type { FastifyRequest } from "fastify";
import { startLogoutRound } from "../../model/saml/logout-rounds.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { logoutRoundPath } from "./paths.ts";

/**
 * Signing out of KPI ID in a browser walks it through the session's SAML SPs (front-channel Single Logout):
 * the path it goes to next, or undefined when the session signed in to none. Asked before the session goes.
 */
export async function frontChannelSignOutPath(request: FastifyRequest, sessionId: string): Promise<string | undefined> {
  const { db, clock } = request.server;
  const round = await startLogoutRound(db, {
    sessionIds: [sessionId],
    returnTo: `/${requestLanguage(request)}/`,
    now: clock(),
  });
  return round ? logoutRoundPath(round) : undefined;
}
