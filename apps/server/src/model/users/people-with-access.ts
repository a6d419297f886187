import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { accessOfPeople } from "../access/people-with-access.ts";

// Who may use an application, page by page, for the console: the people (this area's table) among those access
// lets in (model/access/people-with-access.ts: individual grants, what the rules give, less exclusions).

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
  }>`select users.id, users.username, users.full_name, users.email, users.status, merged.granted, merged.ruled
    from ${accessOfPeople(applicationId)} merged join users on users.id = merged.user_id
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
