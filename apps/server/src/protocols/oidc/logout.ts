import type { FastifyInstance } from "fastify";
import { revokeOidcGrants } from "../../model/oidc/grants.ts";
import { deleteOidcSession, oidcSessionNamed, oidcSessionsSignedInAt } from "../../model/oidc/sessions.ts";
import { type EndingSessions, endsEveryGrant, type SignOutParticipant } from "../../model/sessions/sign-out.ts";
import type { Db } from "../../platform/db/schema.ts";

/** The library's cookie naming the browser's provider session (its default name; provider.ts keeps it). */
const providerSessionCookie = "_session";

type Authorizations = Record<string, { sid?: string; grantId?: string; persistsLogout?: boolean } | undefined>;

/** An application signed in within an ended provider session, to be sent a logout token for it. */
interface SignedInApplication {
  clientId: string;
  sid: string;
}

/** The browser's own provider session when a browser signs out; else those that followed the ended sign-ins. */
async function providerSessionsOf(tx: Db, ending: EndingSessions) {
  if (ending.cookie) {
    const id = ending.cookie(providerSessionCookie);
    return id && id.length <= 128 ? oidcSessionNamed(tx, ending.userId, id) : [];
  }
  return ending.loginTimes.length === 0 ? [] : oidcSessionsSignedInAt(tx, ending.userId, [...ending.loginTimes]);
}

/**
 * OpenID Connect's part in every sign-out. In the transaction: the provider sessions that followed the ended
 * sign-ins (their `loginTs`, kpi-session.ts) end, with their grants but those with offline_access (Back-Channel
 * Logout §2.7); where the reason ends every token (a password change or reset, a reset second factor, disabling)
 * every grant of the person ends, offline_access too, consents kept. After the commit every application of those
 * sessions that registered a back-channel logout URI gets a logout token; a failure is logged and never blocks
 * the sign-out. Without `app` (the CLI: no provider to sign logout tokens with) the grants end and nobody is told.
 */
export function oidcSignOut(app?: FastifyInstance): SignOutParticipant<SignedInApplication[]> {
  return {
    name: "oidc",
    async withinTransaction(tx, ending) {
      const sessions = await providerSessionsOf(tx, ending);
      const signedIn: SignedInApplication[] = [];
      const grantIds: string[] = [];
      for (const session of sessions) {
        const authorizations = (session.payload.authorizations ?? {}) as Authorizations;
        for (const [clientId, authorization] of Object.entries(authorizations)) {
          signedIn.push({ clientId, sid: authorization?.sid ?? "" });
          if (authorization?.grantId && !authorization.persistsLogout) grantIds.push(authorization.grantId);
        }
        await deleteOidcSession(tx, session.id);
      }
      await revokeOidcGrants(tx, { grantIds });
      // What the person consented to stays: disabling forgets it on its own (model/sessions/disable.ts).
      if (endsEveryGrant[ending.reason]) await revokeOidcGrants(tx, { userId: ending.userId });
      return signedIn;
    },
    async afterCommit(ending, signedIn) {
      const runtime = app?.oidc;
      if (!runtime) return;
      const notices = signedIn.map(async ({ clientId, sid }) => {
        const client = await runtime.provider.Client.find(clientId);
        if (!client?.backchannelLogoutUri) return;
        // Public in the library (its end_session action calls it) but missing from its type declarations.
        const notifiable = client as unknown as { backchannelLogout(sub: string, sid: string): Promise<void> };
        await notifiable
          .backchannelLogout(ending.userId, sid)
          .catch((error: unknown) => app.log.warn({ err: error, clientId }, "oidc: back-channel logout failed"));
      });
      await Promise.all(notices);
    },
  };
}
