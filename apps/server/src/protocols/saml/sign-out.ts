import type { FastifyInstance } from "fastify";
import { startLogoutRound } from "../../model/saml/logout-rounds.ts";
import { forgetSamlSessions, samlSessionsOf } from "../../model/saml/sessions.ts";
import type { SignOutParticipant } from "../../model/sessions/sign-out.ts";
import type { LogoutSubject } from "./logout-steps.ts";
import { logoutRoundPath } from "./paths.ts";

/** What a sign-out leaves SAML to do: walk the browser through a round, or tell the SPs over the back channel. */
interface SamlEnding {
  round?: string;
  backChannel: LogoutSubject[];
}

/**
 * SAML's part in every sign-out. When a browser signs out and can be sent on, it is walked through the session's
 * SPs (front-channel Single Logout, logout-steps.ts), a round recorded before the session records go, ending at
 * the sign-out's own destination; an SP's LogoutRequest starts its own round (logout-receive.ts, which answers the
 * SP). Without a browser (a password change, an operator, disabling) each SP with a SOAP logout endpoint is told
 * after the commit (logout-back-channel.ts). Either way the session records go with the sessions.
 */
export function samlSignOut(app: FastifyInstance): SignOutParticipant<SamlEnding> {
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
      // An SP in two of the sessions is told of each (its own session per SessionIndex), each once.
      const backChannel = ending.browser ? [] : await samlSessionsOf(tx, ending.sessionIds);
      await forgetSamlSessions(tx, ending.sessionIds);
      return { round, backChannel };
    },
    async afterCommit(_ending, { backChannel }) {
      if (backChannel.length === 0) return;
      // samlify and xmldom load on the first SAML sign-out, not at start (startup-modules test).
      const { tellServiceProviders } = await import("./logout-back-channel.ts");
      await tellServiceProviders(app, backChannel);
    },
    browserPath: ({ round }) => (round ? logoutRoundPath(round) : undefined),
  };
}
