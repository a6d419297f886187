// The request's side of throttle/address.ts: platform/throttle takes the address as a value (issue 58).
import type { FastifyRequest } from "fastify";
import { throttleAddress } from "../throttle/address.ts";

/** The request's client address as throttling counts it (THROTTLE_IPV6_PREFIX_LENGTH). */
export function requestThrottleAddress(request: FastifyRequest): string {
  return throttleAddress(request.ip, request.server.config.throttleIpv6PrefixLength);
}
