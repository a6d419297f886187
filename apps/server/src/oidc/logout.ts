import type { FastifyReply, FastifyRequest } from "fastify";
import { revokeOidcGrants } from "../access/oidc-grants.ts";

/**
 * Signing out of KPI ID itself (not through an application) ends this
 * browser's provider session as well, as RP-initiated logout does: its grants
 * are revoked except those with offline_access (Back-Channel Logout §2.7), and
 * every application signed in during it that registered a back-channel logout
 * URI gets a logout token. Failures to reach an application are logged, never
 * block the sign-out.
 */
export async function endOidcSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const runtime = request.server.oidc;
  if (!runtime) return;
  const { provider } = runtime;
  const ctx = provider.createContext(request.raw, reply.raw);
  const session = await provider.Session.get(ctx);
  const accountId = session.accountId;
  if (!accountId) return;
  const notices = Object.keys(session.authorizations ?? {}).map(async (clientId) => {
    const client = await provider.Client.find(clientId);
    if (!client?.backchannelLogoutUri) return;
    const sid = session.sidFor(clientId);
    // Public in the library (its end_session action calls it) but missing from its type declarations.
    const notifiable = client as unknown as { backchannelLogout(sub: string, sid: string): Promise<void> };
    await notifiable
      .backchannelLogout(accountId, sid ?? "")
      .catch((error: unknown) => request.log.warn({ err: error, clientId }, "oidc: back-channel logout failed"));
  });
  await Promise.all(notices);
  const ending = Object.values(session.authorizations ?? {}).flatMap((authorization) =>
    authorization.grantId && !authorization.persistsLogout ? [authorization.grantId] : [],
  );
  await revokeOidcGrants(request.server.db, { grantIds: ending });
  await session.destroy();
}
