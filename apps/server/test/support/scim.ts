import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { createScimToken } from "../../src/model/scim/tokens.ts";

export const scimUserSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
export const kpiUserSchema = "urn:ietf:params:scim:schemas:extension:kpi:2.0:User";
export const patchOpSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const scimErrorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";

/** A live SCIM token for a source system of that name. */
export async function scimToken(app: FastifyInstance, name = "hr"): Promise<string> {
  return (await createScimToken(app.db, name)).token;
}

export interface ScimRequest {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request as a provisioning client sends it: bearer token, application/scim+json. */
export function scim(
  app: FastifyInstance,
  token: string,
  url: string,
  { method = "GET", body, headers = {} }: ScimRequest = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/scim/v2${url}`,
    ...(body === undefined ? {} : { payload: typeof body === "string" ? body : JSON.stringify(body) }),
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/scim+json" }),
      ...headers,
    },
  });
}

/** A SCIM User body with the KPI extension. */
export function scimUser(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [scimUserSchema, kpiUserSchema],
    userName,
    name: { formatted: `Особа ${userName}` },
    emails: [{ value: `${userName}@example.com`, primary: true }],
    active: true,
    ...extra,
  };
}
