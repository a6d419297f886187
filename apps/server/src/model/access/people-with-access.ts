import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { peopleGivenByRules } from "./rules.ts";

/** Who may use an application, page by page, for the console: individual grants, what the rules give, less exclusions. */

export const accessPageSize = 50;

export interface PersonWithAccess {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  status: "active" | "disabled";
  via: "grant" | "rule" | "both";
}

function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page (by username) of the people the application lets in, matched by `q` against username, name and
 * e-mail; `hasMore` says whether another page follows. Disabled people with a grant are listed (marked).
 */
export async function peopleWithAccess(
  db: Db,
  applicationId: string,
  options: {
    q?: string;
    page: number;
    /** Only the people in a unit role's reach (model/users' personInUnits, issue 79), even on the unit's own application. */
    inReach?: RawBuilder<SqlBool>;
  },
): Promise<{ people: PersonWithAccess[]; hasMore: boolean }> {
  const q = options.q?.trim() ?? "";
  const filter = q
    ? sql`and (lower(users.username) like ${likePattern(q)} or lower(users.full_name) like ${likePattern(q)}
        or lower(coalesce(users.email, '')) like ${likePattern(q)})`
    : sql``;
  const inUnits = options.inReach ? sql`and ${options.inReach}` : sql``;
  const offset = (options.page - 1) * accessPageSize;
  const result = await sql<{
    id: string;
    username: string;
    full_name: string;
    email: string | null;
    status: "active" | "disabled";
    granted: boolean;
    ruled: boolean;
  }>`with allowed as (
      select user_id, true as granted, false as ruled from user_applications where application_id = ${applicationId}
      union all
      select distinct ruled.user_id, false, true from (${peopleGivenByRules(applicationId)}) ruled
    ), merged as (
      select user_id, bool_or(granted) as granted, bool_or(ruled) as ruled from allowed
      where user_id not in (select user_id from access_exclusions where application_id = ${applicationId})
      group by user_id
    )
    select users.id, users.username, users.full_name, users.email, users.status, merged.granted, merged.ruled
    from merged join users on users.id = merged.user_id
    where true ${filter} ${inUnits}
    order by users.username
    limit ${accessPageSize + 1} offset ${offset}`.execute(db);
  const rows = result.rows.slice(0, accessPageSize);
  return {
    hasMore: result.rows.length > accessPageSize,
    people: rows.map((row) => ({
      id: row.id,
      username: row.username,
      fullName: row.full_name,
      email: row.email,
      status: row.status,
      via: row.granted && row.ruled ? "both" : row.granted ? "grant" : "rule",
    })),
  };
}
