import type { FastifyRequest } from "fastify";
import SCIMMY from "scimmy";
import { findUserById } from "../../model/users/queries.ts";
import type { User } from "../../platform/db/schema.ts";
import { scimBasePath } from "./constants.ts";
import { ScimError } from "./errors.ts";
import { normalizePatch } from "./patch-shapes.ts";
import {
  checkIfMatch,
  isNotModified,
  listParams,
  refuseNotProvisioned,
  refuseUnknownAttributes,
} from "./request-checks.ts";
import { attributeParams, idOf, type ScimHandler, scimErrors, searchQuery, uuidPattern } from "./route-helpers.ts";
import { absoluteScimUri, sendScim } from "./send.ts";
import { listScimUsers } from "./user-list.ts";
import { userVersion, userViews } from "./user-model.ts";
import { hashPushedPassword, ownerOf, setPushedPassword, takePassword } from "./user-password.ts";
import { deleteScimUser, type WriteMode, writeScimUser } from "./user-write.ts";

/** What scimmy hands back to the handlers below: the request they serve and how it writes. */
interface ScimContext {
  request: FastifyRequest;
  mode: WriteMode;
  /** A password the client pushed, taken out of the body (user-password.ts). */
  password?: string;
}

type PatchBody = Parameters<InstanceType<typeof SCIMMY.Resources.User>["patch"]>[0];

/** The SCIM-visible person with that id, or 404 (a malformed id is simply not there). */
async function visibleUser(request: FastifyRequest, id: string): Promise<User> {
  const user = uuidPattern.test(id) ? await findUserById(request.server.db, id) : undefined;
  if (!user || user.scim_deleted_at) throw new ScimError("request.not_found", undefined, "no such User");
  return user;
}

async function viewOf(request: FastifyRequest, user: User) {
  const [view] = await userViews(request.server.db, [user]);
  if (!view) throw new ScimError("request.not_found", undefined, "no such User");
  return view;
}

/** Tells scimmy how Users are read, written and removed; once per process (handlers.ts). */
export function declareUserHandlers(): void {
  // scimmy's store is process-wide; the handlers find the request (and its database) in the context.
  SCIMMY.Resources.User.egress((resource, context: ScimContext) =>
    scimErrors(async () => {
      if (!resource.id) throw new ScimError("scim.invalid_request", undefined, "lists are served by GET /Users");
      return viewOf(context.request, await visibleUser(context.request, resource.id));
    }),
  );
  SCIMMY.Resources.User.ingress((resource, instance, context: ScimContext) =>
    scimErrors(async () => {
      const user = await writeScimUser(context.request, resource.id, instance, context.mode, context.password);
      return viewOf(context.request, user);
    }),
  );
  SCIMMY.Resources.User.degress((resource, context: ScimContext) =>
    scimErrors(async () => {
      if (!resource.id) throw new ScimError("request.not_found", undefined, "no such User");
      await deleteScimUser(context.request, resource.id);
    }),
  );
}

/** The Users endpoints (routes.ts registers them at start-up and loads these with the first SCIM request). */
export const userHandlers = {
  listUsers: async (request, reply) =>
    sendScim(reply, 200, await listScimUsers(request.server.db, listParams(request.query))),
  searchUsers: async (request, reply) =>
    sendScim(reply, 200, await listScimUsers(request.server.db, listParams(searchQuery(request.body)))),
  getUser: async (request, reply) => {
    const user = await visibleUser(request, idOf(request));
    if (isNotModified(request.headers["if-none-match"], userVersion(user)))
      return reply.code(304).header("etag", userVersion(user)).header("cache-control", "no-store").send();
    const context: ScimContext = { request, mode: "replace" };
    const resource = await new SCIMMY.Resources.User(user.id, attributeParams(request)).read(context);
    return sendScim(reply.header("etag", userVersion(user)), 200, resource);
  },
  createUser: async (request, reply) => {
    refuseUnknownAttributes(SCIMMY.Schemas.User.definition, request.body);
    refuseNotProvisioned(request.body);
    const { body, password } = takePassword(request.body);
    const context: ScimContext = { request, mode: "create", ...(password === undefined ? {} : { password }) };
    const created = await new SCIMMY.Resources.User(undefined, attributeParams(request)).write(body, context);
    const user = await visibleUser(request, String(created.id));
    reply
      .header("location", absoluteScimUri(reply, `${scimBasePath}/Users/${user.id}`))
      .header("etag", userVersion(user));
    return sendScim(reply, 201, created);
  },
  replaceUser: async (request, reply) => {
    const current = await visibleUser(request, idOf(request));
    checkIfMatch(request.headers["if-match"], userVersion(current));
    refuseUnknownAttributes(SCIMMY.Schemas.User.definition, request.body);
    refuseNotProvisioned(request.body);
    const { body, password } = takePassword(request.body);
    const context: ScimContext = { request, mode: "replace", ...(password === undefined ? {} : { password }) };
    const written = await new SCIMMY.Resources.User(current.id, attributeParams(request)).write(body, context);
    return sendScim(reply.header("etag", userVersion(await visibleUser(request, current.id))), 200, written);
  },
  patchUser: async (request, reply) => {
    const current = await visibleUser(request, idOf(request));
    checkIfMatch(request.headers["if-match"], userVersion(current));
    const context: ScimContext = { request, mode: "patch" };
    refuseNotProvisioned(request.body);
    const pushed = takePassword(request.body);
    // Checked and hashed first: a password the policy refuses leaves the rest of the PATCH unapplied too.
    const passwordHash = await hashPushedPassword(request, pushed.password, ownerOf(current), current.id);
    const resource = new SCIMMY.Resources.User(current.id, attributeParams(request));
    const body = normalizePatch(pushed.body, await viewOf(request, current), SCIMMY.Schemas.User.definition);
    // Again once pathless operations are one per attribute: `{"roles[primary eq true].value": …}` names roles too.
    refuseNotProvisioned(body);
    // scimmy checks the PatchOp message at run time and answers 400 invalidSyntax/invalidPath for a bad one.
    if (!pushed.onlyPassword) await resource.patch(body as PatchBody, context);
    if (passwordHash) await setPushedPassword(request, current, passwordHash);
    const patched = await resource.read(context);
    return sendScim(reply.header("etag", userVersion(await visibleUser(request, current.id))), 200, patched);
  },
  deleteUser: async (request, reply) => {
    const current = await visibleUser(request, idOf(request));
    checkIfMatch(request.headers["if-match"], userVersion(current));
    await new SCIMMY.Resources.User(current.id).dispose({ request, mode: "replace" } satisfies ScimContext);
    return reply.code(204).header("cache-control", "no-store").send();
  },
} satisfies Record<string, ScimHandler>;
