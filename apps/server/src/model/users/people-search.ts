import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db, UserStatus } from "../../platform/db/schema.ts";
import { grantedIndividually } from "../access/applications.ts";
import {
  exact,
  matches,
  nameBegins,
  nameOrder,
  notExact,
  notNameBegins,
  notSwappedBegins,
  readTyped,
  swappedBegins,
  swappedOrder,
  type Typed,
} from "./people-search-terms.ts";
import { personInUnits } from "./person-units.ts";

export const peoplePageSize = 25;
/**
 * Matches are counted up to this many, then the console says "more than 1,000". An exact count of
 * "ко" at 100,000 people reads some 76,000 rows (over 50 ms), and the planner's estimate of a
 * pattern is a guess (10 rows for "петренко", which 4,200 people match), so neither is shown.
 */
export const peopleCountCap = 1_000;

export interface PeopleSearch {
  /** Words typed; each must appear somewhere in the name, username, e-mail, student or employee id. */
  query?: string;
  status?: UserStatus;
  /** Only people with access to this application. */
  applicationId?: string;
  /** Only people with a student record or a position in one of these units (a unit role's reach, issue 79). */
  unitIds?: readonly string[];
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
  /** The units the person has a record in (users.unit_ids, kept by the database). */
  unitIds: string[];
}

export interface PeopleResult {
  people: PersonSummary[];
  hasMore: boolean;
  /** How many match, counted up to peopleCountCap; past it `totalCapped` and total = the cap. */
  total: number;
  totalCapped: boolean;
}

/** One rank of the list: the people it admits, and the order within it that an index keeps. */
interface Rank {
  where: RawBuilder<SqlBool>[];
  order: RawBuilder<string>;
  /** The rank's people are few: collect them and sort, rather than walk the order's index. */
  collect?: boolean;
}

/**
 * `walked`: the statement walks an order's index until its page is full, so the unit test is written so that the
 * units' index cannot serve it (as matches' `indexed: false`): the planner, guessing few matches, would read the
 * unit's 5,000 people and sort them (300 ms for "кв" on a busy machine) where the walk reads some 600.
 */
function filtered(db: Db, search: PeopleSearch, where: RawBuilder<SqlBool>[], walked = false) {
  let query = db.selectFrom("users");
  for (const condition of where) query = query.where(condition);
  if (search.status) query = query.where("users.status", "=", search.status);
  if (search.applicationId) {
    const applicationId = search.applicationId;
    query = query.where(grantedIndividually(sql.ref("users.id"), applicationId));
  }
  if (search.unitIds) query = query.where(personInUnits(search.unitIds, { indexed: !walked }));
  return query;
}

/** How many people the conditions admit, reading no more than `atMost` + 1 of them. */
async function countUpTo(db: Db, search: PeopleSearch, where: RawBuilder<SqlBool>[], atMost: number) {
  const row = await db
    .selectFrom(
      filtered(db, search, where)
        .select(sql`1`.as("one"))
        .limit(atMost + 1)
        .as("admitted"),
    )
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

const columns = ["id", "username", "full_name", "email", "student_id", "employee_id", "status", "unit_ids"] as const;

/**
 * A rank's rows from `offset`, in its order. Collected: in a materialized CTE, which keeps the
 * planner from walking the name index instead (that reads most of the table when the few
 * matches sort late). Walked: the order's index read until the page is full, fast when many match.
 */
async function rankRows(db: Db, search: PeopleSearch, rank: Rank, offset: number, limit: number) {
  if (rank.collect) {
    return db
      .with(
        (cte) => cte("matches").materialized(),
        () => filtered(db, search, rank.where).select(columns).select(rank.order.as("sort_key")),
      )
      .selectFrom("matches")
      .select(columns)
      .orderBy("sort_key")
      .orderBy("id")
      .limit(limit)
      .offset(offset)
      .execute();
  }
  return filtered(db, search, rank.where, true)
    .select(columns)
    .orderBy(rank.order)
    .orderBy("users.id")
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * The ranks in the list's order, each given how many people the ranks before it held. Each
 * excludes the ones before it, so a person is listed once. The rest (rank 4) is collected through
 * the trigram index when it may be few (the count is within the cap, or the ranks before took half
 * of it); else it is many, and walking the name index finds a page soon, with the test written so
 * the trigram index cannot serve it (the planner would collect and sort tens of thousands).
 */
function ranksOf(typed: Typed | null, total: number): ((passed: number) => Rank)[] {
  if (!typed) return [() => ({ where: [], order: nameOrder })];
  return [
    () => ({ where: [exact(typed)], order: nameOrder, collect: true }),
    () => ({ where: [nameBegins(typed), notExact(typed)], order: nameOrder }),
    () => ({ where: [swappedBegins(typed), notNameBegins(typed), notExact(typed)], order: swappedOrder }),
    (passed) => {
      const few = total <= peopleCountCap || passed >= peopleCountCap / 2;
      const match = matches(typed, { indexed: few });
      return {
        where: [match, notExact(typed), notNameBegins(typed), notSwappedBegins(typed)],
        order: nameOrder,
        collect: few,
      };
    },
  ];
}

/**
 * One page of people, best matches first (the ranks of people-search-terms.ts), by name within a
 * rank, and how many match in all (up to peopleCountCap). A page is read a rank at a time through
 * the rank's own index and stops when full, so the first page of "ол" does not sort 14,000 names.
 * A later page counts the ranks it passes (up to what it must skip) to know where it starts.
 */
export async function searchPeople(db: Db, search: PeopleSearch): Promise<PeopleResult> {
  const typed = readTyped(search.query);
  const { total, rows } = await db.transaction().execute(async (trx) => {
    // Without statistics of a typed pattern the planner guesses its matches (10 rows for
    // "петренко", 4,200 in fact) and may read the whole table, evaluating the search text of each
    // of 100,000 rows (about 100 ms), where the trigram index or a name index reads a few hundred.
    // Every statement below has an index that serves it, so a sequential scan is only ever that
    // guess. Parallel workers cost more to start (10 ms) than these statements take.
    await sql`select set_config('enable_seqscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`.execute(
      trx,
    );
    const total = await countUpTo(trx, search, typed ? [matches(typed, { indexed: true })] : [], peopleCountCap);
    return { total, rows: await pageRows(trx, search, ranksOf(typed, total)) };
  });
  return {
    hasMore: rows.length > peoplePageSize,
    total: Math.min(total, peopleCountCap),
    totalCapped: total > peopleCountCap,
    people: rows.slice(0, peoplePageSize).map((row) => ({
      id: row.id,
      username: row.username,
      fullName: row.full_name,
      email: row.email,
      studentId: row.student_id,
      employeeId: row.employee_id,
      status: row.status,
      unitIds: row.unit_ids,
    })),
  };
}

/** The page's rows and one more (to tell whether another page follows), a rank at a time. */
async function pageRows(db: Db, search: PeopleSearch, ranks: ((passed: number) => Rank)[]) {
  let skip = (search.page - 1) * peoplePageSize;
  let wanted = peoplePageSize + 1;
  let passed = 0;
  const rows: Awaited<ReturnType<typeof rankRows>> = [];
  for (const rankAfter of ranks) {
    const rank = rankAfter(passed);
    if (skip > 0) {
      const inRank = await countUpTo(db, search, rank.where, skip);
      if (inRank <= skip) {
        skip -= inRank;
        passed += inRank;
        continue;
      }
    }
    const found = await rankRows(db, search, rank, skip, wanted);
    passed += skip + found.length;
    skip = 0;
    rows.push(...found);
    wanted -= found.length;
    if (wanted === 0) break;
  }
  return rows;
}
