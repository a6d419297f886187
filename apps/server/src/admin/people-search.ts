import { sql } from "kysely";
import type { Db, UserStatus } from "../db/schema.ts";

export const peoplePageSize = 25;

export interface PeopleSearch {
  /** Words typed; each must appear somewhere in the name, username, e-mail, student or employee id. */
  query?: string;
  status?: UserStatus;
  /** Only people with access to this application. */
  applicationId?: string;
  page: number;
}

export interface PersonSummary {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  studentId: string | null;
  employeeId: string | null;
  status: UserStatus;
}

// The same expression as the trigram index of migration 0180, so the planner uses it.
const searchable = sql<string>`lower(users.full_name || ' ' || users.username || ' ' || coalesce(users.email, '') || ' ' || coalesce(users.student_id, '') || ' ' || coalesce(users.employee_id, ''))`;

const likeEscaped = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A tax id (RNOKPP) is found only when typed whole: no one can list people by a part of it. */
const taxIdPattern = /^\d{10}$/;

// Matches sorted after collecting them cost more than walking the name index beyond this many.
const collectAtMost = 15_000;

/** The planner's estimate of the matches (EXPLAIN only plans: no row is read). */
async function estimatedMatches(db: Db, search: PeopleSearch, words: string[]): Promise<number> {
  const [plan] = await matching(db, search, words).explain<{ "QUERY PLAN": { Plan: { "Plan Rows": number } }[] }>(
    "json",
  );
  return plan?.["QUERY PLAN"][0]?.Plan["Plan Rows"] ?? Number.POSITIVE_INFINITY;
}

/** The list's order: the Ukrainian alphabet, as the index users_name_order_idx keeps it (migration 0181). */
const nameOrder = sql<string>`kpi_name_order(users.full_name) collate "C"`;

/** The people the search and filters admit, each with the key the list is ordered by. */
function matching(db: Db, search: PeopleSearch, words: string[]) {
  let query = db
    .selectFrom("users")
    .select(["id", "username", "full_name", "email", "student_id", "employee_id", "status"])
    .select(nameOrder.as("sort_name"));
  const typed = (search.query ?? "").trim();
  if (taxIdPattern.test(typed)) {
    query = query.where((eb) =>
      eb.or([eb("users.tax_id", "=", typed), eb(searchable, "like", `%${likeEscaped(typed)}%`)]),
    );
  } else {
    for (const word of words) query = query.where(searchable, "like", `%${likeEscaped(word)}%`);
  }
  if (search.status) query = query.where("users.status", "=", search.status);
  if (search.applicationId) {
    const applicationId = search.applicationId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("user_applications")
          .select("user_applications.user_id")
          .whereRef("user_applications.user_id", "=", "users.id")
          .where("user_applications.application_id", "=", applicationId),
      ),
    );
  }
  return query;
}

/**
 * One page of people, ordered by name. Reads one row more than a page to tell whether another
 * page follows, instead of counting every match (a count of "ко" at 100,000 people costs more
 * than the page itself).
 *
 * Two ways to a page, chosen by the planner's estimate of how many match: few (a surname, part of
 * an e-mail or id) are collected through the trigram index and then sorted, in a materialized CTE
 * that keeps the planner from walking the name index instead (which reads most of the table when
 * the word is a first name that sorts late); many ("енко"), or words too short to have a trigram
 * (a letter or two), are dense enough that walking the name index in order finds a page soon.
 */
export async function searchPeople(
  db: Db,
  search: PeopleSearch,
): Promise<{ people: PersonSummary[]; hasMore: boolean }> {
  const words = (search.query ?? "").toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  const offset = (search.page - 1) * peoplePageSize;
  const rows =
    words.some((word) => word.length >= 3) && (await estimatedMatches(db, search, words)) <= collectAtMost
      ? await db
          .with(
            (cte) => cte("matches").materialized(),
            () => matching(db, search, words),
          )
          .selectFrom("matches")
          .selectAll()
          .orderBy("sort_name")
          .orderBy("id")
          .limit(peoplePageSize + 1)
          .offset(offset)
          .execute()
      : await matching(db, search, words)
          .orderBy(nameOrder)
          .orderBy("users.id")
          .limit(peoplePageSize + 1)
          .offset(offset)
          .execute();
  return {
    hasMore: rows.length > peoplePageSize,
    people: rows.slice(0, peoplePageSize).map((row) => ({
      id: row.id,
      username: row.username,
      fullName: row.full_name,
      email: row.email,
      studentId: row.student_id,
      employeeId: row.employee_id,
      status: row.status,
    })),
  };
}
