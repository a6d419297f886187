import { createHmac } from "node:crypto";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import type { ThrottleRule } from "../../platform/throttle/policy.ts";
import { takeAttempt } from "../../platform/throttle/throttle.ts";

const hourSeconds = 60 * 60;

/**
 * GUEST_INVITATIONS_PER_HOUR as a throttle rule: that many in an hour go, the next waits until the hour from
 * the first is over. Every invitation counts (the attempt is taken before the checks).
 */
export function invitationRule(perHour: number): ThrottleRule {
  return {
    // The attempt is counted before the check (policy.ts): perHour - 1 counted free lets the perHour-th go.
    freeFailures: perHour - 1,
    firstDelaySeconds: hourSeconds,
    maxDelaySeconds: hourSeconds,
    forgetAfterSeconds: hourSeconds,
    forgetFrom: "firstFailure",
  };
}

/**
 * Counts one guest invitation against the sponsor (on a key of its own, an HMAC of their id): 429
 * guest.too_many_invitations past the hour's number. Nobody else's invitations, nor any sign-in, count here.
 */
export async function takeGuestInvitation(db: Db, secret: string, sponsorId: string, perHour: number, now: Date) {
  const key = `guest-invite:${createHmac("sha256", secret).update(`guest-invite\0${sponsorId}`).digest("base64url")}`;
  const decision = await takeAttempt(db, [{ key, rule: invitationRule(perHour) }], now);
  if (!decision.allowed) {
    throw new AppError("guest.too_many_invitations", { retryAfterSeconds: decision.retryAfterSeconds });
  }
}
