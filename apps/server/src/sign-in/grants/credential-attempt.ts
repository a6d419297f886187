import type { FastifyRequest } from "fastify";
import type { AuditEvent } from "../../platform/audit/record.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { deviceNonceFor } from "../../platform/http/device-cookie.ts";
import { requestThrottleAddress } from "../../platform/http/throttle-address.ts";
import { credentialThrottleKeys, type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";

/** What the audit row of a throttled guess says besides its result and reason. */
export type ThrottledGuess = Omit<AuditEvent, "result" | "reason">;

/**
 * Counts one guess of a credential (a password or a second-factor code) for the typed username,
 * the client's address and this browser's device cookie for the person, so a stranger's guesses
 * never hold the owner's browser; `counters` adds the guess's own (a second factor's). A guess past the limit is audited (as `guess` describes it) and refused with
 * 429 `auth.too_many_attempts`; otherwise the counter keys come back, to settle once the guess is judged.
 */
export async function takeCredentialAttempt(
  request: FastifyRequest,
  username: string,
  guess: ThrottledGuess,
  counters: ThrottleKey[] = [],
): Promise<ThrottleKey[]> {
  const { db, config, clock } = request.server;
  const keys = [
    ...credentialThrottleKeys(config.sessionSecret, {
      username,
      address: requestThrottleAddress(request),
      device: deviceNonceFor(request, guess.userId ?? undefined),
    }),
    ...counters,
  ];
  const attempt = await takeAttempt(db, keys, clock());
  if (!attempt.allowed) {
    await audit(request, { ...guess, result: "failure", reason: "auth.too_many_attempts" });
    throw new AppError("auth.too_many_attempts", { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  return keys;
}
