import { FeedCache } from "../../platform/cache/feed-cache.ts";
import type { SessionWithApplications } from "./store.ts";

export { type CacheChange, deafAfterMs, parseCacheChange } from "../../platform/cache/feed-cache.ts";

// The tables a cached GET /user answer is read from (load.ts; person_affiliations is a view over the records).
export const sessionCacheTables = [
  "sessions",
  "users",
  "applications",
  "units",
  "access_rules",
  "user_applications",
  "access_exclusions",
  "student_records",
  "employee_positions",
  "guests",
  "guest_units",
] as const;

/**
 * The sessions this instance answered GET /user and the page for, by token hash, each kept at most until its
 * session must be touched again (load.ts), and dropped when a change names its session or its person.
 */
export class SessionCache extends FeedCache<SessionWithApplications> {
  constructor(capacity: number, monotonicNow?: () => number) {
    super({
      capacity,
      readsTables: sessionCacheTables,
      touchedBy: (session, change) =>
        (change.kind === "session" && change.ids.has(session.id)) ||
        (change.kind === "person" && change.ids.has(session.userId)),
      monotonicNow,
    });
  }
}
