import type { AuditEventType } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { hasConsent } from "../../model/access/consents.ts";
import { ticketAsksConsent, ticketDataOf } from "../../model/access/ticket-consents.ts";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { recordIntegrationFailure } from "../../model/developers/health.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { audit } from "../../platform/http/audit.ts";
import { canStepUp } from "../mfa/decision.ts";
import { decide, type GateAsks, type GateDecision, gateRefusals } from "./decide.ts";

export type { GateAsks, GateDecision, GateDecisionKind } from "./decide.ts";
export { gateRefusals } from "./decide.ts";

/** What a protocol brings to the gate: who, into which application, what its request asks, and its consent. */
export interface GateQuestion {
  session: LoadedSession | null | undefined;
  /** None for a federation's SAML service provider that no application stands behind: anyone may use it. */
  application: ApplicationRow | undefined;
  asks?: GateAsks;
  /**
   * Whether this protocol's consent is missing for the person (the ticket path and CAS share the ticket consent;
   * OpenID Connect and SAML have their own). Asked only when every check before consent passed.
   */
  needsConsent(session: LoadedSession): Promise<boolean>;
}

/** What a service provider without an application asks: nothing of its own. */
const openToEveryone = { require_mfa: false, lifecycle: "live", suspended_at: null } as const;

/** The gate's answer to a protocol: a refusal to write in its own terms, or the session to issue for. */
export type GateOutcome = Exclude<GateDecision, { kind: "issue" }> | { kind: "issue"; session: LoadedSession };

/** The gate for a request: the facts read from the model as the checks need them, and the decision. */
export async function passGate(request: FastifyRequest, question: GateQuestion): Promise<GateOutcome> {
  const { db } = request.server;
  const { application } = question;
  const session = question.session ?? undefined;
  const decision = await decide({
    session,
    application: application ?? openToEveryone,
    asks: question.asks ?? {},
    hasAccess: async () =>
      session ? application === undefined || hasApplicationAccess(db, session.userId, application.id) : false,
    canProveMore: async () => (session ? canStepUp(request, session.user) : false),
    needsConsent: async () => (session ? question.needsConsent(session) : false),
  });
  if (decision.kind !== "issue") return decision;
  return session ? { kind: "issue", session } : { kind: "sign_in" };
}

/** The ticket path's and CAS's consent: every community application asks, until the person's answer covers it. */
export function ticketConsentMissing(request: FastifyRequest, application: ApplicationRow) {
  return async (session: LoadedSession) =>
    ticketAsksConsent(application) &&
    !(await hasConsent(
      request.server.db,
      session.userId,
      { protocol: "ticket", applicationId: application.id },
      ticketDataOf(application),
      request.server.clock(),
    ));
}

/**
 * Audits a refusal the gate decided (its reason from the one table, `gateRefusals`) and notes it in the
 * application's integration health where the developer has something to fix or explain.
 */
export async function noteGateRefusal(
  request: FastifyRequest,
  decision: GateOutcome,
  context: {
    type: AuditEventType;
    protocol: "ticket" | "oidc" | "cas";
    session: LoadedSession;
    application: ApplicationRow;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  if (decision.kind === "issue" || decision.kind === "sign_in" || decision.kind === "sign_in_again") return;
  const { reason, health } = gateRefusals[decision.kind];
  const { session, application } = context;
  await audit(request, {
    type: context.type,
    result: "failure",
    authMethod: session.authMethod,
    userId: session.userId,
    applicationId: application.id,
    reason,
    ...(context.details && { details: context.details }),
  });
  if (health) await recordIntegrationFailure(request.server.db, application.id, context.protocol, health);
}
