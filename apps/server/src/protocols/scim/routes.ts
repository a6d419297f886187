import type { FastifyInstance, FastifyRequest } from "fastify";
import SCIMMY from "scimmy";
import { registerScimAuth } from "./auth.ts";
import { ScimError, sendScimError } from "./errors.ts";
import { scimGroupRoutes } from "./group-routes.ts";
import { configureScimmy, scimBasePath } from "./schema.ts";
import { sendScim } from "./send.ts";
import { scimUserRoutes } from "./user-routes.ts";

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

/** The one id a discovery path names, or the whole list. */
function discoveryId(request: FastifyRequest): string | undefined {
  const params = request.params as { id?: string };
  return params.id;
}

async function discoveryRoutes(scope: FastifyInstance): Promise<void> {
  scope.get("/ServiceProviderConfig", async (_request, reply) =>
    sendScim(reply, 200, await new SCIMMY.Resources.ServiceProviderConfig().read()),
  );
  for (const path of ["/ResourceTypes", "/ResourceTypes/:id"]) {
    scope.get(path, async (request, reply) => {
      const id = discoveryId(request);
      return sendScim(reply, 200, await new SCIMMY.Resources.ResourceType(...(id ? [id] : [])).read());
    });
  }
  for (const path of ["/Schemas", "/Schemas/:id"]) {
    scope.get(path, async (request, reply) => {
      const id = discoveryId(request);
      return sendScim(reply, 200, await new SCIMMY.Resources.Schema(...(id ? [id] : [])).read());
    });
  }
}

/**
 * SCIM 2.0 (RFC 7643, 7644) at /scim/v2 for the university's HR and student systems: its own body
 * parser (application/scim+json and application/json), its own error shape, its own bearer tokens.
 */
export async function scimRoutes(app: FastifyInstance): Promise<void> {
  configureScimmy();
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
      await scope.register(discoveryRoutes);
      await scope.register(scimUserRoutes);
      await scope.register(scimGroupRoutes);
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
