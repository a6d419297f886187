import { FeedCache, readThrough } from "../../platform/cache/feed-cache.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { findApplicationById, isUuid } from "./queries.ts";

/**
 * The applications this instance read by id: a sign-in, an OpenID Connect request or a ticket exchange names
 * one several times, and they change seldom. Any change to the table (its trigger announces "all") drops them.
 */
export class ApplicationCache extends FeedCache<ApplicationRow> {
  constructor(capacity: number) {
    super({ capacity, readsTables: ["applications"], touchedBy: () => false });
  }
}

/** The application with this id (frozen, shared: do not change it), from the instance's memory when it is there. */
export function cachedApplicationById(
  cache: ApplicationCache,
  db: Db,
  id: string,
  now = Date.now(),
): Promise<ApplicationRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return readThrough(cache, id, () => findApplicationById(db, id), now);
}
