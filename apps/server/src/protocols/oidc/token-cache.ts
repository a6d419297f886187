import { FeedCache } from "../../platform/cache/feed-cache.ts";
import type { Db } from "../../platform/db/schema.ts";
import { type OidcRequestMemory, type OidcRow, rememberRelated, selectRelated } from "./request-memory.ts";

/** An access token's row as read, with its grant's: what userinfo and introspection read of the provider's storage. */
export interface CachedAccessToken {
  token: OidcRow;
  grant: OidcRow;
}

// For entries whose every change is announced, a lifetime is only a safety net (feed-cache.ts's read-through).
const keptAtMostMs = 60_000;
/**
 * The trigger announces no row already past its expiry by the database's clock (the sweeper's thousands), so an
 * entry ends this long before its rows do: a revocation in a token's last moments is announced to an instance
 * whose clock runs behind the database's by less than this.
 */
const expiryMarginMs = 60_000;

/**
 * The access tokens this instance read, by stored id (their SHA-256: the memory holds no working token), each
 * with its grant. Userinfo asks for both at every call, usually with the same token for the token's whole
 * life. A change to the token's row or its grant's, whoever makes it, is announced as `grant:<id>` (migration
 * 0470) and drops the entry. This instance's adapter says what its own writes changed at once (`forgetWritten`:
 * that token's entry, or that grant's), so a token it has just revoked is never answered from memory, and the rest
 * of the cache serves on; other writers' changes to oidc_payloads hold it back until heard (feed.ts). The person and the application come from their
 * own caches (account-cache.ts, apps/cache.ts), which follow their own changes.
 */
export class AccessTokenCache extends FeedCache<CachedAccessToken> {
  constructor(capacity: number) {
    super({
      capacity,
      readsTables: ["oidc_payloads"],
      // The trigger names a token by its grant_id column, the entry its grant by the payload's grantId; the adapter
      // writes them equal, a row written by hand need not.
      touchedBy: (entry, change) =>
        change.kind === "grant" &&
        (change.ids.has(entry.grant.id) || (entry.token.grant_id !== null && change.ids.has(entry.token.grant_id))),
    });
  }
}

/** The earliest of the rows' ends (less the margin) and the safety net, in epoch ms. */
function keptUntil(rows: readonly OidcRow[], now: number): number {
  let until = now + keptAtMostMs;
  for (const row of rows) if (row.expires_at) until = Math.min(until, row.expires_at.getTime() - expiryMarginMs);
  return until;
}

/**
 * An access token's row by stored id for a provider request, with its grant remembered in the request's memory
 * as `selectWithRelated` does: from the instance's memory when it is there, else read (token, grant and session
 * in one statement) and kept, as the table answered, when the token's grant was found and nothing changed meanwhile.
 */
export async function readAccessToken(
  cache: AccessTokenCache,
  db: Db,
  memory: OidcRequestMemory,
  storedId: string,
  now = Date.now(),
): Promise<OidcRow | undefined> {
  const cached = cache.get(storedId, now);
  if (cached)
    return rememberRelated(memory, { found: cached.token, grantId: cached.grant.id, related: [cached.grant] });
  const mark = cache.mark();
  const read = await selectRelated(db, memory, "AccessToken", storedId);
  if (!read) return undefined;
  const grant = read.related.find((row) => row.type === "Grant" && row.id === read.grantId);
  if (grant)
    // Kept as read (the cache freezes them): the request's memory gets copies of them (rememberRelated).
    cache.store(storedId, { token: read.found, grant }, keptUntil([read.found, grant], now), mark, now);
  return rememberRelated(memory, read);
}

/** The kinds of oidc_payloads rows the cache keeps (as a token or as its grant). */
const cachedTypes: ReadonlySet<string> = new Set(["AccessToken", "Grant"]);

/** Whether the adapter's write of a row of this type changes anything the cache may keep. */
export function changesCachedRows(type: string): boolean {
  return cachedTypes.has(type);
}

/**
 * The adapter wrote (or removed) a row, by type and stored id, and its statement held nothing back (feed.ts):
 * an access token's own entry goes, or a grant's tokens; a read of them in flight is not kept.
 */
export function forgetWritten(cache: AccessTokenCache | undefined, type: string, storedId: string): void {
  if (type === "AccessToken") cache?.forget([storedId]);
  else if (type === "Grant") forgetGrant(cache, storedId);
}

/** Every token of the grant, and the grant (revoked, or saved again). */
export function forgetGrant(cache: AccessTokenCache | undefined, grantId: string): void {
  cache?.forgetNamed({ kind: "grant", ids: new Set([grantId]) });
}
