import { recordAuditEvent } from "../../platform/audit/record.ts";
import type { Db } from "../../platform/db/schema.ts";
import { revokeOidcGrants } from "../oidc/grants.ts";
import type { SignedOut, SignOutEvents, SignOutReason } from "./sign-out-events.ts";

/** Whose sessions end: every one of the person's, all but the asking browser's (`except`), or one (`only`). */
export interface Whose {
  userId: string;
  except?: string;
  only?: string;
}

const endsEveryGrant: Record<SignOutReason, boolean> = {
  one: false,
  others: false,
  operator: false,
  "operator.reset_mfa": true,
  password_change: true,
  password_reset: true,
  scim_password: true,
  disabled: true,
  // Erasure deletes every grant and pending sign-in itself, and counts them for the person (privacy/erase.ts).
  erased: false,
};

/** Who asked, for the audit row: an operator's id, the address and browser of the request. */
export interface Why {
  reason: SignOutReason;
  actorId?: string;
  ip?: string;
  userAgent?: string;
}

export interface SessionEnding {
  db: Db;
  now: Date;
  /** Where the protocols hear of it (sign-out-events.ts); the CLI has no protocol to tell. */
  events?: Pick<SignOutEvents, "publish">;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The statements of ending sessions, for a caller that holds a transaction (disabling a person): the sessions
 * go (their SAML session records with them, by the foreign key), the grants `why` calls for, and one
 * `session_end` audit row. Answers what the protocols are to hear once the transaction commits.
 */
export async function endSessionsWithin(db: Db, who: Whose, why: Why, now: Date): Promise<SignedOut> {
  let query = db.deleteFrom("sessions").where("user_id", "=", who.userId);
  if (who.except) query = query.where("id", "!=", who.except);
  if (who.only) query = query.where("id", "=", who.only);
  const ended = await query.returning("created_at").execute();
  if (endsEveryGrant[why.reason]) {
    await db.deleteFrom("login_grants").where("user_id", "=", who.userId).execute();
    // What the person consented to stays: disabling forgets it on its own (users/queries.ts).
    await revokeOidcGrants(db, { userId: who.userId, keepConsents: true });
  }
  // A session named that was not there (or not the person's) ended nothing: the caller answers 404, unrecorded.
  if (!(who.only && ended.length === 0))
    await recordAuditEvent(db, {
      type: "session_end",
      result: "success",
      userId: who.userId,
      reason: why.reason,
      actorId: why.actorId,
      ip: why.ip,
      userAgent: why.userAgent,
      occurredAt: now,
    });
  return { userId: who.userId, loginTimes: ended.map((row) => seconds(row.created_at)), reason: why.reason };
}

/**
 * Ends a person's sessions, with one set of side effects for every caller (the account page, the console,
 * a password change or reset, a second factor reset, disabling, erasure): endSessionsWithin's statements,
 * then the event is published (sign-out-events.ts), so the OpenID Connect sessions started in them end and their applications get
 * a back-channel logout. Answers how many sessions ended.
 */
export async function endSessions(ending: SessionEnding, who: Whose, why: Why): Promise<number> {
  const signedOut = await endSessionsWithin(ending.db, who, why, ending.now);
  await ending.events?.publish(signedOut);
  return signedOut.loginTimes.length;
}
