import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Database, Db, User } from "../../platform/db/schema.ts";

/**
 * The people as SCIM sees them (the account rows this area owns): the SQL behind SCIM's GET /Users
 * (protocols/scim/user-list.ts) — the candidates a filter's indexed parts (id, userName, externalId, active, meta
 * dates) narrow to, and one page counted and ordered by the database — and the lookups its groups and writes make.
 */

/** Which page of people, in which order (SCIM's list parameters). */
export interface PageParams {
  sortBy?: string;
  sortOrder?: "ascending" | "descending";
  startIndex: number;
  count: number;
}

type Eb = ExpressionBuilder<Database, "users">;
type Comparison = [string, unknown];

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const operators: Record<string, ">" | ">=" | "<" | "<=" | "="> = { gt: ">", ge: ">=", lt: "<", le: "<=", eq: "=" };

/** The plain comparisons of one attribute ("not" ones are left to scimmy). */
function comparisons(expressions: unknown): Comparison[] {
  if (!Array.isArray(expressions)) return [];
  const list: unknown[] = expressions.every(Array.isArray) ? expressions : [expressions];
  return list.flatMap((item) =>
    Array.isArray(item) && item.length === 2 && typeof item[0] === "string"
      ? [[item[0].toLowerCase(), item[1]] as Comparison]
      : [],
  );
}

function dateCondition(eb: Eb, column: "updated_at" | "created_at", [op, value]: Comparison) {
  const operator = operators[op];
  const date = typeof value === "string" ? new Date(value) : undefined;
  if (!operator || operator === "=" || !date || Number.isNaN(date.getTime())) return undefined;
  return eb(column, operator, date);
}

function equalCondition(eb: Eb, key: string, [op, value]: Comparison): Expression<SqlBool> | undefined {
  if (op !== "eq") return undefined;
  if (key === "active")
    return typeof value === "boolean" ? eb("status", "=", value ? "active" : "disabled") : undefined;
  if (typeof value !== "string") return undefined;
  if (key === "id") return uuidPattern.test(value) ? eb("id", "=", value) : sql<SqlBool>`false`;
  if (key === "username") return eb(sql<string>`lower(username)`, "=", value.toLowerCase());
  if (key === "externalid") return eb("scim_external_id", "=", value);
  return undefined;
}

/** One "or" branch as SQL; undefined when no part of it is indexed. */
function branchCondition(eb: Eb, branch: Record<string, unknown>): Expression<SqlBool> | undefined {
  const conditions: Expression<SqlBool>[] = [];
  for (const [attribute, expressions] of Object.entries(branch)) {
    const key = attribute.toLowerCase();
    if (key === "meta" && expressions && typeof expressions === "object" && !Array.isArray(expressions)) {
      for (const [sub, inner] of Object.entries(expressions)) {
        const column =
          sub.toLowerCase() === "lastmodified"
            ? "updated_at"
            : sub.toLowerCase() === "created"
              ? "created_at"
              : undefined;
        if (!column) continue;
        for (const comparison of comparisons(inner)) {
          const condition = dateCondition(eb, column, comparison);
          if (condition) conditions.push(condition);
        }
      }
      continue;
    }
    for (const comparison of comparisons(expressions)) {
      const condition = equalCondition(eb, key, comparison);
      if (condition) conditions.push(condition);
    }
  }
  return conditions.length ? eb.and(conditions) : undefined;
}

/**
 * The people the filter's indexed parts narrow to (its "or" branches as scimmy parsed them), at most
 * `limit` + 1 of them: more than `limit` tells the caller the filter is too wide.
 */
export async function scimCandidates(db: Db, filter: Record<string, unknown>[], limit: number): Promise<User[]> {
  const branches = filter.map((branch) => (eb: Eb) => branchCondition(eb, branch));
  return db
    .selectFrom("users")
    .selectAll()
    .where("scim_deleted_at", "is", null)
    .where((eb) => {
      const conditions = branches.map((branch) => branch(eb));
      return conditions.every((condition) => condition !== undefined) ? eb.or(conditions) : eb.val(true);
    })
    .limit(limit + 1)
    .execute();
}

const sortColumns: Record<string, "updated_at" | "created_at" | "id" | "full_name" | "scim_external_id"> = {
  "meta.lastmodified": "updated_at",
  "meta.created": "created_at",
  id: "id",
  displayname: "full_name",
  "name.formatted": "full_name",
  externalid: "scim_external_id",
};

/** One page of the people a condition (or none) selects, counted and ordered by the database. */
export async function scimUserPage(db: Db, params: PageParams, condition?: (eb: Eb) => Expression<SqlBool>) {
  const visible = db.selectFrom("users").where("scim_deleted_at", "is", null);
  const base = condition ? visible.where(condition) : visible;
  const total = await base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
  const key = params.sortBy?.toLowerCase();
  const direction = params.sortOrder === "descending" ? "desc" : "asc";
  const column = key ? sortColumns[key] : undefined;
  const ordered = column
    ? base.orderBy(column, direction)
    : key === "username"
      ? base.orderBy(sql`lower(username)`, direction)
      : base.orderBy("created_at", direction);
  const rows = await ordered
    .orderBy("id")
    .selectAll()
    .offset(params.startIndex - 1)
    .limit(params.count)
    .execute();
  return { rows, total: Number(total.n) };
}

/** The person the source system knows by this externalId, deleted over SCIM or not. */
export function personByExternalId(db: Db, externalId: string) {
  return db
    .selectFrom("users")
    .select(["id", "scim_deleted_at"])
    .where("scim_external_id", "=", externalId)
    .executeTakeFirst();
}

/**
 * The usernames of these people, by id, in the database's order of usernames; those deleted over SCIM left out
 * (SCIM shows no one else).
 */
export async function scimVisibleUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where("id", "in", [...new Set(ids)])
    .where("scim_deleted_at", "is", null)
    .orderBy("username")
    .execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
