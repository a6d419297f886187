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
  serviceProviderConfig: async (_request, reply) =>
    sendScim(reply, 200, await new SCIMMY.Resources.ServiceProviderConfig().read()),
  resourceTypes: async (request, reply) => {
    const id = discoveryId(request);
    return sendScim(reply, 200, await new SCIMMY.Resources.ResourceType(...(id ? [id] : [])).read());
  },
  schemas: async (request, reply) => {
    const id = discoveryId(request);
    return sendScim(reply, 200, await new SCIMMY.Resources.Schema(...(id ? [id] : [])).read());
  },
} satisfies Record<string, ScimHandler>;
