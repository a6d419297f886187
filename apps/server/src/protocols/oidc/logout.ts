import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { revokeOidcGrants } from "../../model/oidc/grants.ts";
import { deleteOidcSession, oidcSessionsSignedInAt } from "../../model/oidc/sessions.ts";

type Authorizations = Record<string, { sid?: string; grantId?: string; persistsLogout?: boolean } | undefined>;

/**
 * Ends a provider session's sign-ins to applications, as RP-initiated logout does: every
 * application that registered a back-channel logout URI gets a logout token, and the grants
 * are revoked except those with offline_access (Back-Channel Logout §2.7). Failures to reach
 * an application are logged, never block the sign-out.
 */
async function signOutOfApplications(app: FastifyInstance, accountId: string, authorizations: Authorizations) {
  const runtime = app.oidc;
  if (!runtime) return;
  const notices = Object.entries(authorizations).map(async ([clientId, authorization]) => {
    const client = await runtime.provider.Client.find(clientId);
    if (!client?.backchannelLogoutUri) return;
    // Public in the library (its end_session action calls it) but missing from its type declarations.
    const notifiable = client as unknown as { backchannelLogout(sub: string, sid: string): Promise<void> };
    await notifiable
      .backchannelLogout(accountId, authorization?.sid ?? "")
      .catch((error: unknown) => app.log.warn({ err: error, clientId }, "oidc: back-channel logout failed"));
  });
  await Promise.all(notices);
  const ending = Object.values(authorizations).flatMap((authorization) =>
    authorization?.grantId && !authorization.persistsLogout ? [authorization.grantId] : [],
  );
  await revokeOidcGrants(app.db, { grantIds: ending });
}

/**
 * Signing out of KPI ID itself (not through an application) ends this
 * browser's provider session as well, and signs it out of its applications (above).
 */
export async function endOidcSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const runtime = request.server.oidc;
  if (!runtime) return;
  const ctx = runtime.provider.createContext(request.raw, reply.raw);
  const session = await runtime.provider.Session.get(ctx);
  const accountId = session.accountId;
  if (!accountId) return;
  await signOutOfApplications(request.server, accountId, session.authorizations ?? {});
  await session.destroy();
}

/**
 * Ends, from another browser, the provider sessions that followed the KPI ID sessions of
 * this person that started at these sign-in times (seconds; the provider's `loginTs`, see
 * kpi-session.ts): signed out of their applications (above) and deleted.
 */
export async function endOidcSessionsSignedInAt(app: FastifyInstance, accountId: string, loginTimes: number[]) {
  if (!app.oidc || loginTimes.length === 0) return;
  const rows = await oidcSessionsSignedInAt(app.db, accountId, loginTimes);
  for (const row of rows) {
    await signOutOfApplications(app, accountId, (row.payload.authorizations ?? {}) as Authorizations);
    await deleteOidcSession(app.db, row.id);
  }
}
