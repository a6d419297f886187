import type { AuthMethod } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";

/**
 * RFC 8176 authentication method references a KPI ID sign-in can achieve, plus the two
 * method names integrators already match on (`google`, `diia`, in `amr` since before MFA).
 * `mfa` marks a sign-in that proved more than one factor; that is what "strong" means here.
 */
export type Amr = "pwd" | "otp" | "hwk" | "swk" | "user" | "pin" | "mfa" | "google" | "diia" | "bankid";

/** The strength a sign-in achieved: its `amr` values, in the order proven. */
export type SignInStrength = readonly Amr[];

/**
 * The strength each method gives on its own. Diia is a qualified signature made on the
 * person's phone and unlocked there (something they have and something they know or are):
 * strong by itself. BankID NBU is the bank's own identification of a customer it verified in person,
 * with the bank's multi-factor sign-in (substantial assurance): strong by itself too. Google is one
 * factor as far as KPI ID can tell.
 */
export const strengthOfMethod: Record<AuthMethod, SignInStrength> = {
  PASSWORD: ["pwd"],
  GOOGLE: ["google"],
  DIIA: ["diia", "swk", "mfa"],
  BANK_ID: ["bankid", "mfa"],
  // A passkey sign-in records what its key was (passkeyStrength); a device-bound key is the default.
  PASSKEY: ["hwk", "user", "mfa"],
};

/** A password followed by a one-time code (TOTP or a recovery code). */
export const passwordAndCode: SignInStrength = ["pwd", "otp", "mfa"];

/** A first factor (a password, Google) followed by a one-time code: its values, then `otp` and `mfa`. */
export function withOneTimeCode(firstFactor: readonly string[]): SignInStrength {
  const first = (firstFactor.length > 0 ? firstFactor : ["pwd"]).filter((value) => value !== "mfa") as Amr[];
  return [...new Set<Amr>([...first, "otp", "mfa"])];
}

/** A passkey with user verification: a key the person holds, unlocked by them. */
export function passkeyStrength(deviceBound: boolean): SignInStrength {
  return [deviceBound ? "hwk" : "swk", "user", "mfa"];
}

/** What a session row knows about its strength. */
export interface SessionStrength {
  authMethod: AuthMethod;
  /** Empty only for a row written before strength was recorded. */
  amr: readonly string[];
  createdAt: Date;
  /** When a multi-factor proof last happened in the session, or null. */
  strongAt: Date | null;
}

/** The session's `amr` values (RFC 8176). */
export function sessionAmr(session: SessionStrength): readonly string[] {
  return session.amr.length > 0 ? session.amr : strengthOfMethod[session.authMethod];
}

export function isMultiFactor(session: SessionStrength): boolean {
  return sessionAmr(session).includes("mfa");
}

/** When the person last authenticated in this session: a step-up later than the sign-in counts. */
export function lastAuthenticatedAt(session: SessionStrength): Date {
  const { strongAt, createdAt } = session;
  return strongAt && strongAt > createdAt ? strongAt : createdAt;
}

/**
 * A strong proof (more than one factor, or Diia) within the last `maxAgeSeconds`, else 403
 * `auth.step_up_required`: the web answers it by asking for the second factor or a passkey.
 */
export function requireStrongSession(request: FastifyRequest, session: SessionStrength, maxAgeSeconds: number): void {
  const provenAt = isMultiFactor(session) ? (session.strongAt ?? session.createdAt) : undefined;
  const ageMs = provenAt ? request.server.clock().getTime() - provenAt.getTime() : Number.POSITIVE_INFINITY;
  if (ageMs > maxAgeSeconds * 1000) throw new AppError("auth.step_up_required");
}

/**
 * The strength columns of a new session row: the only place a session's strength is written. A session is
 * as strong as the sign-in (or step-up sign-in, which starts a new session) that made it; nothing done inside
 * the session later (enrolling an authenticator, adding a passkey, new recovery codes) raises it, because a
 * factor set up by whoever holds the session proves nothing about who holds the password.
 */
export function strengthColumns(amr: SignInStrength | readonly string[], now: Date) {
  return { amr: [...amr], strong_at: amr.includes("mfa") ? now : null };
}
