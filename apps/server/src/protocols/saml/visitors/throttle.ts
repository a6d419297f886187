import type { FastifyRequest } from "fastify";
import { AppError } from "../../../platform/errors.ts";
import { requestThrottleAddress } from "../../../platform/http/throttle-address.ts";
import { throttlePolicy } from "../../../platform/throttle/policy.ts";
import { settleSuccess, type ThrottleKey, takeAttempt } from "../../../platform/throttle/throttle.ts";

/** Answers from home institutions, per address, as Google's are: a stream of forged answers slows down. */
const keysOf = (request: FastifyRequest): ThrottleKey[] => [
  { key: `institution-ip:${requestThrottleAddress(request)}`, rule: throttlePolicy.ip },
];

/** Runs one answer check under the per-address throttle; a verified answer gives its attempt back. */
export async function throttledAnswer<T>(request: FastifyRequest, check: () => Promise<T>): Promise<T> {
  const { db, clock } = request.server;
  const keys = keysOf(request);
  const attempt = await takeAttempt(db, keys, clock());
  if (!attempt.allowed) throw new AppError("auth.too_many_attempts", { retryAfterSeconds: attempt.retryAfterSeconds });
  const result = await check();
  await settleSuccess(db, keys);
  return result;
}
