import type { FastifyInstance, FastifyRequest } from "fastify";
import { verifyScimToken } from "../../model/scim/tokens.ts";
import type { ScimToken } from "../../platform/db/people-schema.ts";
import { requestThrottleAddress } from "../../platform/http/throttle-address.ts";
import { ScimError } from "./errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The SCIM client this request came from (scim/auth.ts); set on every /scim/v2 request served. */
    scimToken: ScimToken | undefined;
  }
}

/**
 * Wrong tokens one address may present a minute before it waits. The requests one SCIM client may make a
 * minute are the operator's (SCIM_REQUESTS_PER_MINUTE, 1,200 by default: a nightly full sync of 40,000
 * people at 20 a second fits). Counted per process: behind a load balancer of n instances the limits are
 * n times these.
 */
const failuresPerMinute = 20;

class WindowCounter {
  private readonly counts = new Map<string, { windowStart: number; count: number }>();
  private readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Counts one more for the key; true while it is within the limit of the current minute. */
  hit(key: string, now: number): boolean {
    const entry = this.counts.get(key);
    if (!entry || now - entry.windowStart >= 60_000) {
      // Keys of past windows are dropped as the map grows, so strangers cannot fill memory.
      if (this.counts.size > 10_000) this.prune(now);
      this.counts.set(key, { windowStart: now, count: 1 });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.limit;
  }

  over(key: string, now: number): boolean {
    const entry = this.counts.get(key);
    return entry !== undefined && now - entry.windowStart < 60_000 && entry.count >= this.limit;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.counts) if (now - entry.windowStart >= 60_000) this.counts.delete(key);
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Every /scim/v2 request needs a live SCIM token; only SCIM tokens open SCIM, and they open nothing else. */
export function registerScimAuth(scope: FastifyInstance): void {
  const requests = new WindowCounter(scope.config.scimRequestsPerMinute);
  const failures = new WindowCounter(failuresPerMinute);
  scope.decorateRequest("scimToken", undefined);
  scope.addHook("onRequest", async (request) => {
    const now = scope.clock().getTime();
    const address = requestThrottleAddress(request);
    if (failures.over(address, now)) throw new ScimError("request.rate_limited", undefined, "too many bad tokens");
    const presented = bearer(request);
    const token = presented ? await verifyScimToken(scope.db, presented, scope.clock()) : undefined;
    if (!token) {
      failures.hit(address, now);
      throw new ScimError("scim.unauthorized", undefined, "a valid SCIM bearer token is required");
    }
    if (!requests.hit(token.id, now)) {
      throw new ScimError("request.rate_limited", undefined, "too many requests from this client");
    }
    request.scimToken = token;
  });
}

export function scimTokenOf(request: FastifyRequest): ScimToken {
  if (!request.scimToken) throw new ScimError("scim.unauthorized", undefined, "no SCIM token");
  return request.scimToken;
}
