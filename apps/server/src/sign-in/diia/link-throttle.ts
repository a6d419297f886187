import type { FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { requestThrottleAddress } from "../../platform/http/throttle-address.ts";
import type { ThrottleRule } from "../../platform/throttle/policy.ts";
import { takeAttempt } from "../../platform/throttle/throttle.ts";

/**
 * Every app-link costs a call to Diia and a row; a page asks for one every
 * two minutes. Counted per address, like a campus NAT's many people: the
 * first 120 in an hour are free, then the address slows down and at 600 waits.
 */
const appLinkRule: ThrottleRule = {
  freeFailures: 120,
  firstDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
  lock: { afterFailures: 600, seconds: 15 * 60 },
  forgetAfterSeconds: 60 * 60,
  forgetFrom: "firstFailure",
};

/** Counts one app-link for the caller's address; throws 429 while the address must wait. */
export async function takeAppLinkAttempt(request: FastifyRequest): Promise<void> {
  const { server } = request;
  const decision = await takeAttempt(
    server.db,
    [{ key: `diia-link:${requestThrottleAddress(request)}`, rule: appLinkRule }],
    server.clock(),
  );
  if (!decision.allowed) throw new AppError("request.rate_limited", { retryAfterSeconds: decision.retryAfterSeconds });
}
