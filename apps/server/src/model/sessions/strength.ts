import type { AuthMethod } from "@kpi-id/contracts";
import { AppError } from "../../platform/errors.ts";

/**
 * RFC 8176 authentication method references a KPI ID sign-in can achieve, plus the two
 * method names integrators already match on (`google`, `diia`, in `amr` since before MFA).
 * `mfa` marks a sign-in that proved more than one factor; that is what "strong" means here.
 */
/**
 * The REFEDS authentication context profiles campus services ask for and hear: OpenID Connect's `acr`, SAML's
 * AuthnContextClassRef and the ticket's AUTH_ACR. Any session meets SFA; a multi-factor one MFA.
 */
export const refedsSfa = "https://refeds.org/profile/sfa";
export const refedsMfa = "https://refeds.org/profile/mfa";

export type Amr = "pwd" | "otp" | "hwk" | "swk" | "user" | "pin" | "mfa" | "google" | "diia" | "bankid" | "fed";

/** The strength a sign-in achieved: its `amr` values, in the order proven. */
export type SignInStrength = readonly Amr[];

/**
 * The strength each method gives on its own. Diia is a qualified signature made on the
 * person's phone and unlocked there (something they have and something they know or are):
 * strong by itself. BankID NBU is the bank's own identification of a customer it verified in person,
 * with the bank's multi-factor sign-in (substantial assurance): strong by itself too. Google is one
 * factor as far as KPI ID can tell.
 */
const strengthOfMethod: Record<AuthMethod, SignInStrength> = {
  PASSWORD: ["pwd"],
  GOOGLE: ["google"],
  DIIA: ["diia", "swk", "mfa"],
  BANK_ID: ["bankid", "mfa"],
  // A passkey sign-in records what its key was (passkeyStrength); a device-bound key is the default.
  PASSKEY: ["hwk", "user", "mfa"],
  // A home institution's sign-in (issue 78): one factor unless its answer says REFEDS MFA (institutionStrength).
  INSTITUTION: ["fed"],
};

/** A sign-in at a home institution: multi-factor when its AuthnContextClassRef is REFEDS MFA, else one factor. */
export function institutionStrength(authnContextClassRef: string | undefined): SignInStrength {
  return authnContextClassRef === refedsMfa ? ["fed", "mfa"] : ["fed"];
}

/** A password followed by a one-time code (TOTP or a recovery code). */
export const passwordAndCode: SignInStrength = ["pwd", "otp", "mfa"];

/** A first factor (a password, Google) followed by a one-time code: its values, then `otp` and `mfa`. */
export function withOneTimeCode(firstFactor: readonly string[]): SignInStrength {
  const first = (firstFactor.length > 0 ? firstFactor : ["pwd"]).filter((value) => value !== "mfa") as Amr[];
  return [...new Set<Amr>([...first, "otp", "mfa"])];
}

/**
 * A first factor (a password, Google) in a browser that proved the person's code within 30 days
 * (mfa/remembered-browser.ts): the browser's signed proof counts as the second factor, a software key.
 */
export function withRememberedBrowser(firstFactor: "pwd" | "google"): SignInStrength {
  return [firstFactor, "swk", "mfa"];
}

/** A passkey with user verification: a key the person holds, unlocked by them. */
export function passkeyStrength(deviceBound: boolean): SignInStrength {
  return [deviceBound ? "hwk" : "swk", "user", "mfa"];
}

/** What a session (or a ticket made from one) knows about its strength. */
export interface SessionStrength {
  authMethod: AuthMethod;
  /** Empty only for a row written before strength was recorded. */
  amr: readonly string[];
  createdAt: Date;
  /** When a multi-factor proof last happened in the session, or null. */
  strongAt: Date | null;
}

/**
 * The `amr` values (RFC 8176) a sign-in with `method` achieved: those it recorded, else (a caller that names
 * none, a row written before strength was recorded) the method's own.
 */
export function signInAmr(method: AuthMethod, recorded?: readonly string[] | null): readonly string[] {
  return recorded && recorded.length > 0 ? recorded : strengthOfMethod[method];
}

/** Whether these `amr` values prove more than one factor: that is what "strong" means here. */
export function provesMultiFactor(amr: readonly string[]): boolean {
  return amr.includes("mfa");
}

/** The REFEDS profile these `amr` values meet (OpenID Connect `acr`, the ticket's AUTH_ACR). */
export function acrOf(amr: readonly string[]): string {
  return provesMultiFactor(amr) ? refedsMfa : refedsSfa;
}

/** The session's `amr` values (RFC 8176). */
export function sessionAmr(session: Pick<SessionStrength, "authMethod" | "amr">): readonly string[] {
  return signInAmr(session.authMethod, session.amr);
}

export function isMultiFactor(session: Pick<SessionStrength, "authMethod" | "amr">): boolean {
  return provesMultiFactor(sessionAmr(session));
}

/** The `acr` a session achieved. */
export function sessionAcr(session: Pick<SessionStrength, "authMethod" | "amr">): string {
  return acrOf(sessionAmr(session));
}

/** Whether authentication context values asked for (OIDC `acr_values`, SAML RequestedAuthnContext) ask for MFA. */
export function asksForMultiFactor(contexts: readonly string[]): boolean {
  return contexts.includes(refedsMfa);
}

/**
 * Whether a way into an application must prove more than one factor: the operator requires it of the application,
 * or of the person (`require_mfa`, whatever method they signed in with), or the request asks for it (OpenID Connect's
 * `acr_values`, SAML's RequestedAuthnContext). Every protocol asks this one function, so the person's requirement
 * holds on each of them.
 */
export function multiFactorRequired(
  person: { require_mfa: boolean },
  application: { require_mfa: boolean } | undefined,
  askedByRequest = false,
): boolean {
  return askedByRequest || person.require_mfa || Boolean(application?.require_mfa);
}

/** When the person last authenticated in this session: a step-up later than the sign-in counts. */
export function lastAuthenticatedAt(session: SessionStrength): Date {
  const { strongAt, createdAt } = session;
  return strongAt && strongAt > createdAt ? strongAt : createdAt;
}

/** What a protocol, the console or an account change asks of a session; every part given must hold. */
export interface StrengthRequirement {
  /** More than one factor (an application's operator requires it, or the request asks for REFEDS MFA). */
  multiFactor?: boolean;
  /** The person authenticated at or after this instant (ForceAuthn, a step-up made for this request). */
  provenSince?: Date;
  /** The multi-factor proof is at most this old at `now` (the console). */
  multiFactorWithin?: { seconds: number; now: Date };
}

/** The one judge: whether the session meets every part of the requirement. */
export function meetsRequirement(session: SessionStrength, requirement: StrengthRequirement): boolean {
  const { multiFactor, provenSince, multiFactorWithin } = requirement;
  if (multiFactor && !isMultiFactor(session)) return false;
  if (provenSince && lastAuthenticatedAt(session).getTime() < provenSince.getTime()) return false;
  if (multiFactorWithin) {
    if (!isMultiFactor(session)) return false;
    const provenAt = session.strongAt ?? session.createdAt;
    if (multiFactorWithin.now.getTime() - provenAt.getTime() > multiFactorWithin.seconds * 1000) return false;
  }
  return true;
}

/**
 * A strong proof (more than one factor, or Diia) within the last `maxAgeSeconds`, else 403
 * `auth.step_up_required`: the web answers it by asking for the second factor or a passkey.
 */
export function requireStrongSession(session: SessionStrength, maxAgeSeconds: number, now: Date): void {
  if (!meetsRequirement(session, { multiFactorWithin: { seconds: maxAgeSeconds, now } }))
    throw new AppError("auth.step_up_required");
}

/**
 * The strength columns of a new session row: the only place a session's strength is written. A session is
 * as strong as the sign-in (or step-up sign-in, which starts a new session) that made it; nothing done inside
 * the session later (enrolling an authenticator, adding a passkey, new recovery codes) raises it, because a
 * factor set up by whoever holds the session proves nothing about who holds the password.
 */
export function strengthColumns(amr: readonly string[], now: Date) {
  return { amr: [...amr], strong_at: provesMultiFactor(amr) ? now : null };
}
