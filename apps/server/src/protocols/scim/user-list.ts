import SCIMMY from "scimmy";
import { exactFilterCondition } from "../../model/scim/user-filter.ts";
import { scimCandidates, scimUserPage } from "../../model/users/scim-candidates.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { scimBasePath } from "./constants.ts";
import { ScimError } from "./errors.ts";
import { parseScimFilter } from "./filter-parse.ts";
import { listResponse, pageOf } from "./list-response.ts";
import type { ListParams } from "./request-checks.ts";
import { type ScimUserView, userViews } from "./user-model.ts";

/**
 * GET /Users. scimmy parses the filter and is the judge of every match; the database only narrows the
 * candidates first, from the filter's indexed parts (id, userName, externalId, active, meta dates), so a
 * "changed since" sync over 100,000 people reads the few that changed. A filter with a branch the
 * database cannot narrow may read at most `maxCandidates` people, else it is refused as tooMany.
 */
export const maxCandidates = 5000;

type Filter = InstanceType<typeof SCIMMY.Types.Filter>;

async function candidates(db: Db, filter: Filter): Promise<User[]> {
  const rows = await scimCandidates(db, [...filter] as Record<string, unknown>[], maxCandidates);
  if (rows.length > maxCandidates) {
    throw new ScimError(
      "scim.invalid_request",
      "tooMany",
      "narrow the filter by userName, externalId or meta.lastModified",
    );
  }
  return rows;
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
  const { rows, total } = await scimUserPage(db, params, exact || undefined);
  return listResponse((await userViews(db, rows)).map(out), params.startIndex, total);
}
