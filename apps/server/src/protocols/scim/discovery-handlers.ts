import type { FastifyRequest } from "fastify";
import SCIMMY from "scimmy";
import { listResponse } from "./list-response.ts";
import type { ScimHandler } from "./route-helpers.ts";
import { sendScim } from "./send.ts";

/** The one id a discovery path names, or the whole list. */
function discoveryId(request: FastifyRequest): string | undefined {
  const params = request.params as { id?: string };
  return params.id;
}

/**
 * scimmy's list of every resource type or schema says itemsPerPage is the count it was asked (20), not the
 * resources it holds; RFC 7644 §3.4.2.4 wants the number in the page, so the list is written again.
 */
function wholeList(list: unknown) {
  const { Resources } = JSON.parse(JSON.stringify(list)) as { Resources?: unknown[] };
  return listResponse(Resources ?? [], 1, Resources?.length ?? 0);
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
    if (id) return sendScim(reply, 200, await new SCIMMY.Resources.ResourceType(id).read());
    return sendScim(reply, 200, wholeList(await new SCIMMY.Resources.ResourceType().read()));
  },
  schemas: async (request, reply) => {
    const id = discoveryId(request);
    if (id) return sendScim(reply, 200, await new SCIMMY.Resources.Schema(id).read());
    return sendScim(reply, 200, wholeList(await new SCIMMY.Resources.Schema().read()));
  },
} satisfies Record<string, ScimHandler>;
