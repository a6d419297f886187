import type { FastifyInstance } from "fastify";
import type { KoaContextWithOIDC } from "oidc-provider";
import { signOutSessions } from "../../model/sessions/end-sessions.ts";
import type { OidcAuditSink } from "./audit.ts";
import { clearKpiSessionCookie, kpiSessionToken } from "./kpi-session.ts";
import { currentOidcMemory } from "./request-memory.ts";

/**
 * RP-initiated logout with "yes, sign me out" ends the browser's KPI ID session too, through the one path
 * (model/sessions/end-sessions.ts): the provider has told this session's applications itself, and the other
 * protocols' applications are told now, the CAS services by back channel. When the session signed in to SAML SPs,
 * the browser is walked through them (front channel) before it goes where the provider was sending it.
 */
export function endKpiSessionOnLogout(app: FastifyInstance, audit: OidcAuditSink) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    await next();
    if (ctx.oidc?.route !== "end_session_confirm" || ctx.status >= 400) return;
    if (ctx.oidc.params?.logout !== "yes") return;
    const token = kpiSessionToken(ctx, app.config);
    if (!token) return;
    // The provider's writes of this request (its session destroyed, the grants revoked) go first: OpenID
    // Connect's participant then finds this browser's provider session gone and tells its applications nothing twice.
    await currentOidcMemory()?.flush(app.db);
    const userAgent = ctx.get("user-agent") || undefined;
    const leavingTo = ctx.status >= 300 && ctx.status < 400 ? ctx.response.get("location") : "";
    const ended = await signOutSessions(
      { db: app.db, now: app.clock(), signOut: app.signOut },
      { token },
      { reason: "signed_out", ip: ctx.ip, userAgent },
      { returnTo: leavingTo || undefined, cookie: (name) => ctx.cookies.get(name, { signed: false }) },
    );
    for (const userId of ended.users)
      await audit({
        type: "oidc_logout",
        result: "success",
        userId,
        applicationId: ctx.oidc.client?.clientId ?? null,
        ip: ctx.ip,
        userAgent,
      });
    if (ended.browserPath) ctx.redirect(`${app.config.publicUrl}${ended.browserPath}`);
    clearKpiSessionCookie(ctx, app.config);
  };
}
