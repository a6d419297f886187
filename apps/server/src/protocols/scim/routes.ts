import type { FastifyInstance, HTTPMethods } from "fastify";
import { loadOnce } from "../../platform/load-once.ts";
import { registerScimAuth } from "./auth.ts";
import { scimBasePath } from "./constants.ts";
import { ScimError, sendScimError } from "./errors.ts";

// scimmy and the handlers built on it come with the first SCIM request (handlers.ts); the routes, the token
// check, the body parser and the error shape are here from the start, so a refused request loads nothing.
const loadHandlers = loadOnce(() => import("./handlers.ts"));
type ScimHandlerName = keyof Awaited<ReturnType<typeof loadHandlers>>["scimHandlers"];

const scimEndpoints: [HTTPMethods, string, ScimHandlerName][] = [
  ["GET", "/ServiceProviderConfig", "serviceProviderConfig"],
  ["GET", "/ResourceTypes", "resourceTypes"],
  ["GET", "/ResourceTypes/:id", "resourceTypes"],
  ["GET", "/Schemas", "schemas"],
  ["GET", "/Schemas/:id", "schemas"],
  ["GET", "/Users", "listUsers"],
  ["POST", "/Users/.search", "searchUsers"],
  ["GET", "/Users/:id", "getUser"],
  ["POST", "/Users", "createUser"],
  ["PUT", "/Users/:id", "replaceUser"],
  ["PATCH", "/Users/:id", "patchUser"],
  ["DELETE", "/Users/:id", "deleteUser"],
  ["GET", "/Groups", "listGroups"],
  ["POST", "/Groups/.search", "searchGroups"],
  ["GET", "/Groups/:id", "getGroup"],
  ["POST", "/Groups", "createGroup"],
  ["PUT", "/Groups/:id", "replaceGroup"],
  ["PATCH", "/Groups/:id", "patchGroup"],
  ["DELETE", "/Groups/:id", "deleteGroup"],
];

/** The largest SCIM request body: a person with a few dozen records is a few kB; 256 kB leaves room. */
export const scimBodyLimit = 256 * 1024;

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ScimError("scim.invalid_request", "invalidSyntax", "the body is not valid JSON");
  }
}

/**
 * SCIM 2.0 (RFC 7643, 7644) at /scim/v2 for the university's HR and student systems: its own body
 * parser (application/scim+json and application/json), its own error shape, its own bearer tokens.
 */
export async function scimRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (scope) => {
      // A bearer token, never a cookie, authorizes SCIM: a browser cannot be made to send one.
      // SCIM is described by its own discovery endpoints (RFC 7644 §4), not in the service's OpenAPI document.
      scope.addHook("onRoute", (route) => {
        route.config = { ...route.config, csrf: false };
        route.schema = { ...route.schema, hide: true };
      });
      scope.setErrorHandler((error, request, reply) => sendScimError(request, reply, error));
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        ["application/scim+json", "application/json"],
        { parseAs: "string", bodyLimit: scimBodyLimit },
        (_request, body, done) => {
          try {
            done(null, parseJson(typeof body === "string" ? body : body.toString("utf8")));
          } catch (error) {
            done(error instanceof Error ? error : new Error(String(error)), undefined);
          }
        },
      );
      registerScimAuth(scope);
      for (const [method, url, name] of scimEndpoints) {
        scope.route({
          method,
          url,
          handler: async (request, reply) => (await loadHandlers()).scimHandlers[name](request, reply),
        });
      }
      // RFC 7644 §3.11: /Me is the authenticated subject's own User; a SCIM token belongs to a system, not a person.
      scope.all("/Me", async () => {
        throw new ScimError(
          "scim.not_implemented",
          undefined,
          "/Me is not offered: a SCIM token belongs to a source system, not to a person",
        );
      });
      scope.all("/*", async () => {
        throw new ScimError("request.not_found", undefined, "no such SCIM endpoint");
      });
      scope.all("/", async () => {
        throw new ScimError("request.not_found", undefined, "no such SCIM endpoint");
      });
    },
    { prefix: scimBasePath },
  );
}
