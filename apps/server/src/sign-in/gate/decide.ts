import type { IntegrationFailureReason } from "@kpi-id/contracts";
import {
  isMultiFactor,
  lastAuthenticatedAt,
  multiFactorRequired,
  type SessionStrength,
} from "../../model/sessions/strength.ts";
import type { ApplicationRow, User } from "../../platform/db/schema.ts";

/**
 * The one decision on the way into an application, for every protocol (the ticket path, OpenID Connect, SAML, CAS,
 * nginx forward-auth): what stands between this browser and the application's answer. A protocol only parses its
 * request, asks `decide` (through gate.ts, which gathers the facts) and writes the decision in its own terms.
 */
export type GateDecision =
  /** No session: the sign-in screen, then back here. */
  | { kind: "sign_in" }
  /** A session, but the request wants a sign-in made after it began (renew, ForceAuthn, prompt=login, max_age). */
  | { kind: "sign_in_again" }
  /** The person may not use the application (rules, grants, exclusions, suspension). */
  | { kind: "no_access" }
  /** The application is in testing, in review or rejected, and the person is neither an owner nor a tester. */
  | { kind: "testing_only" }
  /** More than one factor is required and the person can prove it: a sign-in with the stronger method. */
  | { kind: "step_up" }
  /** More than one factor is required and the person has nothing to prove it with: they set a factor up first. */
  | { kind: "set_up_second_factor" }
  /** An application that is not first-party, and the person has not agreed to what it receives. */
  | { kind: "consent" }
  /** Nothing stands in the way: the protocol issues its ticket, code or assertion. */
  | { kind: "issue" };

export type GateDecisionKind = GateDecision["kind"];

/** What a request asks beyond the application's own requirements. */
export interface GateAsks {
  /** Only a sign-in made at or after this instant will do. */
  signedInSince?: Date | undefined;
  /** More than one factor (OpenID Connect `acr_values`, SAML's REFEDS MFA). */
  multiFactor?: boolean | undefined;
}

/**
 * The facts the checks read. Those that cost a query are functions, asked only when a check gets that far, so a
 * refusal early in the list reads nothing after it.
 */
export interface GateFacts {
  session: (SessionStrength & { user: Pick<User, "status" | "require_mfa"> }) | undefined;
  application: Pick<ApplicationRow, "require_mfa" | "lifecycle" | "suspended_at">;
  asks: GateAsks;
  /** Whether the person may use the application now (model/access: rules, grants, exclusions, testers). */
  hasAccess(): Promise<boolean>;
  /** Whether the person holds a way to prove a second factor (an authenticator, a passkey, Diia). */
  canProveMore(): Promise<boolean>;
  /** Whether the application asks this person's consent and does not have it yet (false for first-party ones). */
  needsConsent(): Promise<boolean>;
}

type GateCheck = (facts: GateFacts) => Promise<GateDecision | undefined> | GateDecision | undefined;

/** Signed in at all, and still allowed to sign in (a disabled person's session is no way in). */
const signedIn: GateCheck = ({ session }) => (session?.user.status === "active" ? undefined : { kind: "sign_in" });

/** A sign-in made after the request began, when the request asks for one. */
const freshEnough: GateCheck = ({ session, asks }) =>
  session && asks.signedInSince && lastAuthenticatedAt(session).getTime() < asks.signedInSince.getTime()
    ? { kind: "sign_in_again" }
    : undefined;

/** Access before anything is asked of the person: one without access is refused at once, on every protocol. */
const mayUse: GateCheck = async ({ application, hasAccess }) => {
  if (await hasAccess()) return undefined;
  const inTesting = application.lifecycle !== "live" && application.suspended_at === null;
  return { kind: inTesting ? "testing_only" : "no_access" };
};

/** The application's, the person's (require_mfa) or the request's second-factor requirement. */
const strongEnough: GateCheck = async ({ session, application, asks, canProveMore }) => {
  if (!session || !multiFactorRequired(session.user, application, asks.multiFactor === true)) return undefined;
  if (isMultiFactor(session)) return undefined;
  return { kind: (await canProveMore()) ? "step_up" : "set_up_second_factor" };
};

/** Identity leaves for an application that is not first-party only after the person agrees. */
const agreed: GateCheck = async ({ needsConsent }) => ((await needsConsent()) ? { kind: "consent" } : undefined);

/** The order, seen once: may sign in → fresh enough → access → second factor → consent → issue. */
export const gateChecks: readonly GateCheck[] = [signedIn, freshEnough, mayUse, strongEnough, agreed];

export async function decide(facts: GateFacts): Promise<GateDecision> {
  for (const check of gateChecks) {
    const decision = await check(facts);
    if (decision) return decision;
  }
  return { kind: "issue" };
}

/** What each refusal is audited as (the reason column) and noted as in the application's integration health. */
export const gateRefusals: Record<
  Exclude<GateDecisionKind, "issue" | "sign_in" | "sign_in_again">,
  { reason: string; health?: IntegrationFailureReason }
> = {
  no_access: { reason: "app.access_denied", health: "no_access" },
  testing_only: { reason: "app.access_denied", health: "in_testing" },
  step_up: { reason: "auth.step_up_required" },
  set_up_second_factor: { reason: "auth.step_up_required" },
  consent: { reason: "consent.required" },
};
