import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { confirmedTotpExists } from "../mfa/totp.ts";
import { passkeyExists } from "../passkeys/credentials.ts";
import type { LoadedSession } from "./store.ts";
import { isMultiFactor, meetsRequirement } from "./strength.ts";

/**
 * How recent a sign-in a sensitive change needs: REAUTH_MAX_AGE_SECONDS at `now`, as plain values (the routes
 * read them off the request with platform/http/reauth.ts).
 */
export interface ReauthWindow {
  db: Db;
  now: Date;
  maxAgeSeconds: number;
}

/**
 * A sensitive change needs a sign-in at most `REAUTH_MAX_AGE_SECONDS` ago (every sign-in starts
 * a new session, so the session's start is the sign-in time); otherwise 403 `auth.reauth_required`,
 * which the web answers by asking the person to sign in again.
 */
export function requireRecentSignIn(session: LoadedSession, window: ReauthWindow): void {
  const provenSince = new Date(window.now.getTime() - window.maxAgeSeconds * 1000);
  if (!meetsRequirement(session, { provenSince })) throw new AppError("auth.reauth_required");
}

/** Whether the person holds a second factor: a confirmed authenticator app or a passkey. */
export async function holdsSecondFactor(db: Db, userId: string): Promise<boolean> {
  // One statement: each area answers its own question as a column.
  const row = await db
    .selectNoFrom([confirmedTotpExists(userId).as("totp"), passkeyExists(userId).as("passkey")])
    .executeTakeFirstOrThrow();
  return Boolean(row.totp) || Boolean(row.passkey);
}

/**
 * Adding or removing a second factor or a passkey, and new recovery codes: a recent sign-in, and when the person
 * already holds a second factor, one that proved it (a password with its code, a passkey, Diia). Otherwise whoever
 * knows only the password (or holds only a Google session) could swap the owner's factor for their own: 403
 * `auth.reauth_second_factor_required`, which the web answers by asking for the password and the code, or a passkey.
 */
export async function requireRecentSignInWithSecondFactor(session: LoadedSession, window: ReauthWindow): Promise<void> {
  requireRecentSignIn(session, window);
  if (isMultiFactor(session)) return;
  if (await holdsSecondFactor(window.db, session.userId)) {
    throw new AppError("auth.reauth_second_factor_required");
  }
}
