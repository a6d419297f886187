import { createHmac } from "node:crypto";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import { type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";

const keyed = (secret: string, kind: string, value: string) =>
  createHmac("sha256", secret).update(`${kind}\0${value}`, "utf8").digest("base64url");

/** The database, the key the counted names are hashed with (SESSION_SECRET) and the time. */
export interface InvitationThrottle {
  db: Db;
  secret: string;
  now: Date;
}

/**
 * Counts one invitation against the person sending it and against the name or address typed (an HMAC, so the
 * table never holds it), whether or not anyone holds it: 429 developer.too_many_invitations past either.
 * Keys of their own: a stranger's invitations never slow anyone's sign-in, nor their answer to an invitation.
 */
export async function takeInvitationAttempt(throttle: InvitationThrottle, inviterId: string, named: string) {
  const { db, secret, now } = throttle;
  const keys: ThrottleKey[] = [
    {
      key: `invite-person:${keyed(secret, "invite-person", inviterId)}`,
      rule: throttlePolicy.invitationPerson,
    },
    {
      key: `invite-target:${keyed(secret, "invite-target", named.trim().toLowerCase())}`,
      rule: throttlePolicy.invitationTarget,
    },
  ];
  const decision = await takeAttempt(db, keys, now);
  if (!decision.allowed) {
    throw new AppError("developer.too_many_invitations", { retryAfterSeconds: decision.retryAfterSeconds });
  }
}

/**
 * Whether one more invitation mail may go to this person (however they were named, by whom): quietly false
 * past three an hour, so nobody can fill a mailbox by spelling the same person two ways. Taken for an
 * invitation that reached nobody too (on a key of the typed name), so both take the same steps.
 */
export async function mayMailInvitee(throttle: InvitationThrottle, inviteeId: string | undefined, named: string) {
  const { db, secret, now } = throttle;
  const who = inviteeId ?? `typed\0${named.trim().toLowerCase()}`;
  const key = {
    key: `invite-invitee:${keyed(secret, "invite-invitee", who)}`,
    rule: throttlePolicy.invitationTarget,
  };
  return (await takeAttempt(db, [key], now)).allowed;
}
