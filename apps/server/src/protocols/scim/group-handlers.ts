import type { FastifyRequest } from "fastify";
import SCIMMY from "scimmy";
import { findUnitById, listUnits } from "../../model/people/units.ts";
import type { Unit } from "../../platform/db/people-schema.ts";
import { scimBasePath } from "./constants.ts";
import { ScimError } from "./errors.ts";
import { parseScimFilter } from "./filter-parse.ts";
import { deleteScimGroup, groupVersion, groupViews, writeScimGroup } from "./group-model.ts";
import { pageOf } from "./list-response.ts";
import { normalizeGroupPatch } from "./patch-shapes.ts";
import { checkIfMatch, type ListParams, listParams, refuseUnknownAttributes } from "./request-checks.ts";
import { attributeParams, idOf, type ScimHandler, scimErrors, searchQuery, uuidPattern } from "./route-helpers.ts";
import { absoluteScimUri, sendScim } from "./send.ts";

/** More units than a university has: the whole list is filtered and sorted before it is paged. */
const scimMaxUnits = 100_000;

/** Groups (the university's units) at /scim/v2/Groups: a few hundred, so lists are filtered in memory by scimmy. */

interface GroupContext {
  request: FastifyRequest;
  /** A PATCH hands the handler the whole patched group: no members there means none. */
  mode?: "write" | "patch";
  /** A list's filter, parsed by filter-parse.ts (scimmy's parser gets grouping and not() wrong). */
  filter?: InstanceType<typeof SCIMMY.Types.Filter>;
}

async function visibleUnit(request: FastifyRequest, id: string): Promise<Unit> {
  const unit = uuidPattern.test(id) ? await findUnitById(request.server.db, id) : undefined;
  if (!unit) throw new ScimError("request.not_found", undefined, "no such Group");
  return unit;
}

async function viewOf(request: FastifyRequest, unit: Unit) {
  const [view] = await groupViews(request.server.db, [unit]);
  if (!view) throw new ScimError("request.not_found", undefined, "no such Group");
  return view;
}

/** Tells scimmy how Groups are read, written and removed; once per process (handlers.ts). */
export function declareGroupHandlers(): void {
  SCIMMY.Resources.Group.egress(async (resource, context: GroupContext) =>
    scimErrors(async () => {
      if (resource.id) return viewOf(context.request, await visibleUnit(context.request, resource.id));
      const views = await groupViews(context.request.server.db, await listUnits(context.request.server.db));
      // scimmy leaves filtering to the handler; it matches by the filter parsed in listGroups.
      return context.filter ? context.filter.match(views) : views;
    }),
  );
  SCIMMY.Resources.Group.ingress((resource, instance, context: GroupContext) =>
    scimErrors(async () =>
      viewOf(context.request, await writeScimGroup(context.request, resource.id, instance, context.mode)),
    ),
  );
  SCIMMY.Resources.Group.degress((resource, context: GroupContext) =>
    scimErrors(async () => {
      if (!resource.id) throw new ScimError("request.not_found", undefined, "no such Group");
      await deleteScimGroup(context.request, resource.id);
    }),
  );
}

async function listGroups(request: FastifyRequest, params: ListParams) {
  const { startIndex, count, sortBy, sortOrder, filter, ...rest } = params;
  const resource = new SCIMMY.Resources.Group(undefined, {
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    ...(sortBy ? { sortBy, sortOrder: sortOrder ?? "ascending" } : {}),
    startIndex: 1,
    count: scimMaxUnits,
  });
  // scimmy filters and sorts all the units; the page is cut here (list-response.ts).
  const parsed = filter === undefined ? undefined : new SCIMMY.Types.Filter(parseScimFilter(filter));
  const all = await resource.read({ request, ...(parsed ? { filter: parsed } : {}) } satisfies GroupContext);
  return pageOf((all as { Resources: unknown[] }).Resources, startIndex, count);
}

/** The Groups endpoints (routes.ts registers them at start-up and loads these with the first SCIM request). */
export const groupHandlers = {
  listGroups: async (request, reply) => sendScim(reply, 200, await listGroups(request, listParams(request.query))),
  searchGroups: async (request, reply) =>
    sendScim(reply, 200, await listGroups(request, listParams(searchQuery(request.body)))),
  getGroup: async (request, reply) => {
    const unit = await visibleUnit(request, idOf(request));
    const resource = await new SCIMMY.Resources.Group(unit.id, attributeParams(request)).read({ request });
    return sendScim(reply.header("etag", groupVersion(unit)), 200, resource);
  },
  createGroup: async (request, reply) => {
    refuseUnknownAttributes(SCIMMY.Schemas.Group.definition, request.body);
    const created = await new SCIMMY.Resources.Group(undefined, attributeParams(request)).write(request.body, {
      request,
    });
    const unit = await visibleUnit(request, String(created.id));
    reply
      .header("location", absoluteScimUri(reply, `${scimBasePath}/Groups/${unit.id}`))
      .header("etag", groupVersion(unit));
    return sendScim(reply, 201, created);
  },
  replaceGroup: async (request, reply) => {
    const current = await visibleUnit(request, idOf(request));
    checkIfMatch(request.headers["if-match"], groupVersion(current));
    refuseUnknownAttributes(SCIMMY.Schemas.Group.definition, request.body);
    const written = await new SCIMMY.Resources.Group(current.id, attributeParams(request)).write(request.body, {
      request,
    });
    return sendScim(reply.header("etag", groupVersion(await visibleUnit(request, current.id))), 200, written);
  },
  patchGroup: async (request, reply) => {
    const current = await visibleUnit(request, idOf(request));
    checkIfMatch(request.headers["if-match"], groupVersion(current));
    const resource = new SCIMMY.Resources.Group(current.id, attributeParams(request));
    // scimmy checks the PatchOp message at run time and answers 400 invalidSyntax/invalidPath for a bad one.
    const patched =
      (await resource.patch(normalizeGroupPatch(request.body) as PatchBody, {
        request,
        mode: "patch",
      } satisfies GroupContext)) ?? (await resource.read({ request }));
    return sendScim(reply.header("etag", groupVersion(await visibleUnit(request, current.id))), 200, patched);
  },
  deleteGroup: async (request, reply) => {
    const current = await visibleUnit(request, idOf(request));
    checkIfMatch(request.headers["if-match"], groupVersion(current));
    await new SCIMMY.Resources.Group(current.id).dispose({ request } satisfies GroupContext);
    return reply.code(204).header("cache-control", "no-store").send();
  },
} satisfies Record<string, ScimHandler>;

type PatchBody = Parameters<InstanceType<typeof SCIMMY.Resources.Group>["patch"]>[0];
