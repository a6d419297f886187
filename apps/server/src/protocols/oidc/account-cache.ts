import type { PersonRoles } from "../../model/people/profile.ts";
import { sessionCacheTables } from "../../model/sessions/cache.ts";
import { FeedCache } from "../../platform/cache/feed-cache.ts";
import type { User } from "../../platform/db/schema.ts";

/** A person as the provider asks for them with a token: claims.ts reads it in one statement. */
export interface AccountRow {
  user: User;
  /** Whether they may use the token's application now (true without a token). */
  allowed: boolean;
  /** Their campus roles, when the statement read them (under the `kpi` scope). */
  roles?: PersonRoles;
}

/** The tables an account row is read from: a GET /user answer's, but for the sessions. */
const accountTables = sessionCacheTables.filter((table) => table !== "sessions");

/**
 * The people the provider asked for with a token (each use of a code, refresh token or access token), by
 * person, application and whether roles were read. A change to the person, their records, grants or exclusions
 * drops theirs; one to applications, units or access rules drops all (migration 0310).
 */
export class AccountCache extends FeedCache<AccountRow> {
  constructor(capacity: number) {
    super({
      capacity,
      readsTables: accountTables,
      touchedBy: (account, change) => change.kind === "person" && change.ids.has(account.user.id),
    });
  }
}
