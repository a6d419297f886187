import type { FastifyInstance } from "fastify";
import { startLogoutRound } from "../../model/saml/logout-rounds.ts";
import { forgetSamlSessions } from "../../model/saml/sessions.ts";
import type { SignOutParticipant } from "../../model/sessions/sign-out.ts";
import { logoutRoundPath } from "./paths.ts";

/**
 * SAML's part in every sign-out. When a browser signs out and can be sent on, it is walked through the session's
 * SPs (front-channel Single Logout, logout-steps.ts), a round recorded before the session records go, ending at
 * the sign-out's own destination. An SP's LogoutRequest starts its own round (logout-receive.ts, which answers the
 * SP), and without a browser (a password change, an operator, disabling) the SPs are not told: KPI ID speaks no
 * SAML back channel (SOAP). Either way the session records go with the sessions.
 */
export function samlSignOut(app: FastifyInstance): SignOutParticipant<string | undefined> {
  return {
    name: "saml",
    async withinTransaction(tx, ending) {
      const round = ending.browser
        ? await startLogoutRound(tx, {
            sessionIds: [...ending.sessionIds],
            returnTo: ending.browser.returnTo,
            now: app.clock(),
          })
        : undefined;
      await forgetSamlSessions(tx, ending.sessionIds);
      return round;
    },
    afterCommit: async () => {},
    browserPath: (round) => (round ? logoutRoundPath(round) : undefined),
  };
}
