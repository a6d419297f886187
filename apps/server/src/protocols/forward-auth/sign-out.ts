import { endSiteSessionsOf } from "../../model/forward-auth/store.ts";
import type { SignOutParticipant } from "../../model/sessions/sign-out.ts";

/**
 * Forward-auth's part in every sign-out: the protected hosts' cookies bound to the ended sessions stop working
 * (their rows go), so nginx's next check answers 401. The cookies live on the hosts, where KPI ID cannot clear
 * them; the hosts ask at every request, so there is nothing to send.
 */
export const forwardAuthSignOut: SignOutParticipant<number> = {
  name: "forward-auth",
  withinTransaction: (tx, ending) => endSiteSessionsOf(tx, ending.sessionIds),
  afterCommit: async () => {},
};
