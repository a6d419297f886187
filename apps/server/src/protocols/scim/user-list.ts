import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import SCIMMY from "scimmy";
import type { Database, Db, User } from "../../platform/db/schema.ts";
import { scimBasePath } from "./constants.ts";
import { ScimError } from "./errors.ts";
import { parseScimFilter } from "./filter-parse.ts";
import { listResponse, pageOf } from "./list-response.ts";
import type { ListParams } from "./request-checks.ts";
import { exactFilterCondition } from "./user-filter-sql.ts";
import { type ScimUserView, userViews } from "./user-model.ts";

/**
 * GET /Users. scimmy parses the filter and is the judge of every match; the database only narrows the
 * candidates first, from the filter's indexed parts (id, userName, externalId, active, meta dates), so a
 * "changed since" sync over 100,000 people reads the few that changed. A filter with a branch the
 * database cannot narrow may read at most `maxCandidates` people, else it is refused as tooMany.
 */
export const maxCandidates = 5000;

type Filter = InstanceType<typeof SCIMMY.Types.Filter>;
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

async function candidates(db: Db, filter: Filter): Promise<User[]> {
  const branches = [...filter].map((branch) => (eb: Eb) => branchCondition(eb, branch as Record<string, unknown>));
  const rows = await db
    .selectFrom("users")
    .selectAll()
    .where("scim_deleted_at", "is", null)
    .where((eb) => {
      const conditions = branches.map((branch) => branch(eb));
      return conditions.every((condition) => condition !== undefined) ? eb.or(conditions) : eb.val(true);
    })
    .limit(maxCandidates + 1)
    .execute();
  if (rows.length > maxCandidates) {
    throw new ScimError(
      "scim.invalid_request",
      "tooMany",
      "narrow the filter by userName, externalId or meta.lastModified",
    );
  }
  return rows;
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
async function pageInDatabase(db: Db, params: ListParams, condition?: (eb: Eb) => Expression<SqlBool>) {
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

/** The value of a comparison in lower case ("eq", "X" → "eq", "x"); a presence test has none. */
function foldExpression(expression: unknown): unknown {
  if (!Array.isArray(expression)) return expression;
  if (expression.every(Array.isArray)) return expression.map(foldExpression);
  return expression.map((value, index) =>
    index > 0 && index === expression.length - 1 && typeof value === "string" ? value.toLowerCase() : value,
  );
}

/**
 * userName is not case-exact (RFC 7643 §4.1.1): a client asking for "Alice" before creating her must find
 * "alice". scimmy compares exactly, so the filter's userName values and the people's userNames are both
 * folded to lower case for the match, and the people are answered as they are.
 */
function matchUserName(filter: Filter, views: ScimUserView[]): ScimUserView[] {
  const folded = [...filter].map((branch) =>
    Object.fromEntries(
      Object.entries(branch).map(([key, value]) => [
        key,
        key.toLowerCase() === "username" ? foldExpression(value) : value,
      ]),
    ),
  );
  const byId = new Map(views.map((view) => [view.id, view]));
  const lowered = views.map((view) => ({ ...view, userName: view.userName.toLowerCase() }));
  return new SCIMMY.Types.Filter(folded).match(lowered).flatMap((view) => byId.get(view.id) ?? []);
}

/**
 * scimmy's matcher throws JavaScript errors on some filters over complex attributes (a person without the
 * attribute, a presence test on a multi-valued one); the client hears a SCIM error that names the filter.
 */
function judged<T>(match: () => T): T {
  try {
    return match();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new ScimError("scim.invalid_request", "invalidFilter", "this filter cannot be evaluated on Users");
  }
}

export async function listScimUsers(db: Db, params: ListParams) {
  // The filter is parsed here (filter-parse.ts: scimmy's parser gets grouping and not() wrong).
  const filter = params.filter === undefined ? undefined : new SCIMMY.Types.Filter(parseScimFilter(params.filter));
  const resource = new SCIMMY.Resources.User(undefined, {
    ...(params.attributes === undefined ? {} : { attributes: params.attributes }),
    ...(params.excludedAttributes === undefined ? {} : { excludedAttributes: params.excludedAttributes }),
  });
  const out = (view: object) => new SCIMMY.Schemas.User(view, "out", `${scimBasePath}/Users`, resource.attributes);
  const exact = filter && exactFilterCondition([...filter] as Record<string, unknown>[]);
  if (filter && !exact) {
    const views = await userViews(db, await candidates(db, filter));
    const matched = judged(() => matchUserName(filter, views));
    // scimmy sorts (by any attribute); the page is cut here.
    const sorted = new SCIMMY.Messages.ListResponse(matched.map(out), {
      ...(params.sortBy ? { sortBy: params.sortBy, sortOrder: params.sortOrder ?? "ascending" } : {}),
      startIndex: 1,
      count: Math.max(1, matched.length),
    }).Resources;
    return pageOf(sorted, params.startIndex, params.count);
  }
  const { rows, total } = await pageInDatabase(db, params, exact || undefined);
  return listResponse((await userViews(db, rows)).map(out), params.startIndex, total);
}
