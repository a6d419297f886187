import type { FastifyRequest } from "fastify";
import SCIMMY from "scimmy";
import type { ScimHandler } from "./route-helpers.ts";
import { sendScim } from "./send.ts";

/** The one id a discovery path names, or the whole list. */
function discoveryId(request: FastifyRequest): string | undefined {
  const params = request.params as { id?: string };
  return params.id;
}

/** RFC 7644 §4: what the service offers, written by scimmy from the schemas and the configuration (schema.ts). */
export const discoveryHandlers = {
  serviceProviderConfig: async (request, reply) => {
    const config = await new SCIMMY.Resources.ServiceProviderConfig().read();
    // scimmy's configuration is process-wide; whether a pushed password is set is this instance's SCIM_PASSWORDS.
    const changePassword = { supported: request.server.config.scimPasswords === "set" };
    return sendScim(reply, 200, { ...JSON.parse(JSON.stringify(config)), changePassword });
  },
  resourceTypes: async (request, reply) => {
    const id = discoveryId(request);
    return sendScim(reply, 200, await new SCIMMY.Resources.ResourceType(...(id ? [id] : [])).read());
  },
  schemas: async (request, reply) => {
    const id = discoveryId(request);
    return sendScim(reply, 200, await new SCIMMY.Resources.Schema(...(id ? [id] : [])).read());
  },
} satisfies Record<string, ScimHandler>;
