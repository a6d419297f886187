import type { AuthMethod } from "@kpi-id/contracts";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { AuditEvent } from "../../platform/audit/record.ts";
import { amrByAuthMethod } from "./claims.ts";

/** Writes an audit row with the request's origin filled in by the caller's app (clock, metrics). */
export type OidcAuditSink = (event: AuditEvent) => Promise<void>;

interface Outcome {
  result: "success" | "failure";
  reason?: string;
}

const authMethodByAmr = new Map(
  Object.entries(amrByAuthMethod).map(([method, amr]) => [amr, method as AuthMethod] as const),
);

// Authorization routes whose outcome is a sign-in into an application.
const signInRoutes = new Set(["authorization", "resume"]);

/**
 * One `oidc_sign_in` row for every authorization response, whether the person
 * saw a screen or not (prompt=none, a session that skips the screens): the
 * provider's events say how each request ended, and this middleware writes the
 * row before the response leaves. Failures are recorded here only for requests
 * answered without an interaction (our interaction routes record the declines
 * and refusals they decide), so none is written twice.
 */
export function auditAuthorizations(provider: Provider, sink: OidcAuditSink) {
  const outcomes = new WeakMap<object, Outcome>();
  provider.on("authorization.success", (ctx: KoaContextWithOIDC) => outcomes.set(ctx, { result: "success" }));
  provider.on(
    "authorization.error",
    (ctx: KoaContextWithOIDC, error: { error?: string; error_description?: string }) => {
      if (error.error === "access_denied") {
        outcomes.set(ctx, { result: "failure", reason: error.error_description ?? error.error });
      }
    },
  );
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    await next();
    const outcome = outcomes.get(ctx);
    const route = ctx.oidc?.route;
    if (!outcome || !route || !signInRoutes.has(route)) return;
    if (outcome.result === "failure" && route !== "authorization") return;
    const session = ctx.oidc.session;
    const amr = Array.isArray(session?.amr) ? session.amr[0] : undefined;
    const userAgent = ctx.get("user-agent");
    await sink({
      type: "oidc_sign_in",
      result: outcome.result,
      authMethod: amr ? authMethodByAmr.get(amr) : undefined,
      userId: session?.accountId ?? null,
      applicationId: ctx.oidc.client?.clientId ?? null,
      reason: outcome.reason,
      ip: ctx.ip,
      userAgent: userAgent || undefined,
    });
  };
}
