import type { FastifyInstance } from "fastify";

/** One operation to fuzz: method, path template and what its OpenAPI entry declares. */
export interface Endpoint {
  method: string;
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
  /** The form parameters a provider endpoint reads from an application/x-www-form-urlencoded body. */
  form?: string[];
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
}

interface Operation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

// The parameters the OpenID Connect provider's endpoints read (oidc-provider's lib/actions), so
// generated values (U+0000 among them) reach its lookups, not only its parameter checks.
const authorizationParams = [
  "client_id",
  "response_type",
  "redirect_uri",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "prompt",
  "max_age",
  "id_token_hint",
  "login_hint",
  "ui_locales",
  "response_mode",
];
const tokenParams = [
  "grant_type",
  "code",
  "redirect_uri",
  "code_verifier",
  "refresh_token",
  "scope",
  "client_id",
  "client_secret",
];
const tokenLookupParams = ["token", "token_type_hint", "client_id", "client_secret"];
const endSessionParams = [
  "id_token_hint",
  "post_logout_redirect_uri",
  "state",
  "ui_locales",
  "client_id",
  "logout_hint",
];
const providerParams: Record<string, string[]> = {
  "/oidc/auth": authorizationParams,
  "/oidc/token": tokenParams,
  "/oidc/me": ["access_token"],
  "/oidc/session/end": endSessionParams,
  "/oidc/session/end/confirm": ["xsrf", "logout"],
  "/oidc/token/introspection": tokenLookupParams,
  "/oidc/token/revocation": tokenLookupParams,
  "/oidc/device/auth": ["client_id", "client_secret", "scope"],
  "/oidc/device": ["xsrf", "user_code", "confirm", "abort"],
};

// Routes hidden from the API reference (probes, metrics, the spec itself) and the OpenID
// Connect provider's own endpoints: fuzzed too, by name, since they are not in the document.
const undocumented: Endpoint[] = [
  "GET /health",
  "GET /ready",
  "GET /metrics",
  "GET /api/openapi.json",
  "GET /oidc/.well-known/openid-configuration",
  "GET /oidc/jwks",
  "GET /oidc/auth",
  "POST /oidc/auth",
  "POST /oidc/token",
  "GET /oidc/me",
  "POST /oidc/me",
  "GET /oidc/session/end",
  "POST /oidc/session/end",
  "POST /oidc/session/end/confirm",
  "POST /oidc/token/introspection",
  "POST /oidc/token/revocation",
  "POST /oidc/device/auth",
  "GET /oidc/device",
  "POST /oidc/device",
  "GET /oidc/interaction/{uid}",
  "POST /oidc/interaction/{uid}/confirm",
  "GET /{lang}/login",
  "GET /kpi-id-signin.js",
].map((line) => {
  const [method = "GET", path = "/"] = line.split(" ");
  const params = providerParams[path] ?? [];
  return {
    method,
    path,
    pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ""),
    query: method === "GET" ? Object.fromEntries(params.map((name) => [name, { type: "string" }])) : {},
    form: method === "POST" && params.length > 0 ? params : undefined,
  };
});

// SCIM 2.0 (RFC 7644) describes itself at its discovery endpoints, not in the OpenAPI document.
const scimList = ["filter", "attributes", "excludedAttributes", "sortBy", "sortOrder", "startIndex", "count"];
const scimRecord = {
  type: "object",
  properties: {
    studentId: { type: "string" },
    employeeId: { type: "string" },
    status: { type: "string" },
    unit: { type: "string" },
    studyYear: { type: "integer" },
  },
};
const scimBody: JsonSchema = {
  type: "object",
  properties: {
    schemas: { type: "array", items: { type: "string" } },
    userName: { type: "string" },
    displayName: { type: "string" },
    externalId: { type: "string" },
    active: { type: ["boolean", "string"] },
    name: { type: "object", properties: { formatted: { type: "string" } } },
    emails: {
      type: "array",
      items: { type: "object", properties: { value: { type: "string" }, primary: { type: "boolean" } } },
    },
    members: { type: "array", items: { type: "object", properties: { value: { type: "string" } } } },
    Operations: {
      type: "array",
      items: {
        type: "object",
        properties: {
          op: { type: "string" },
          path: { type: "string" },
          value: { type: ["string", "boolean", "object"] },
        },
      },
    },
    "urn:ietf:params:scim:schemas:extension:kpi:2.0:User": {
      type: "object",
      properties: {
        studentRecords: { type: "array", items: scimRecord },
        employeePositions: { type: "array", items: scimRecord },
      },
    },
    filter: { type: "string" },
    startIndex: { type: ["integer", "string"] },
    count: { type: ["integer", "string"] },
  },
};
const scim: Endpoint[] = [
  "GET /scim/v2/ServiceProviderConfig",
  "GET /scim/v2/ResourceTypes",
  "GET /scim/v2/ResourceTypes/{id}",
  "GET /scim/v2/Schemas",
  "GET /scim/v2/Schemas/{id}",
  "POST /scim/v2/Bulk",
  ...["Users", "Groups"].flatMap((type) => [
    `GET /scim/v2/${type}`,
    `POST /scim/v2/${type}`,
    `POST /scim/v2/${type}/.search`,
    `GET /scim/v2/${type}/{id}`,
    `PUT /scim/v2/${type}/{id}`,
    `PATCH /scim/v2/${type}/{id}`,
    `DELETE /scim/v2/${type}/{id}`,
  ]),
].map((line) => {
  const [method = "GET", path = "/"] = line.split(" ");
  const list = method === "GET" && /(Users|Groups)$/.test(path);
  return {
    method,
    path,
    pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ""),
    query: Object.fromEntries((list ? scimList : ["attributes"]).map((name) => [name, { type: "string" }])),
    body: method === "GET" || method === "DELETE" ? undefined : scimBody,
  };
});

/** Every operation of the served OpenAPI document, so a new endpoint is fuzzed without editing this file. */
export function endpointsOf(app: FastifyInstance): Endpoint[] {
  const document = app.swagger() as { paths?: Record<string, Record<string, Operation>> };
  const documented: Endpoint[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      documented.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: Object.fromEntries(parameters.filter((p) => p.in === "query").map((p) => [p.name, p.schema ?? {}])),
        body: operation.requestBody?.content?.["application/json"]?.schema,
      });
    }
  }
  const known = new Set(documented.map((e) => `${e.method} ${e.path}`));
  return [...documented, ...[...undocumented, ...scim].filter((e) => !known.has(`${e.method} ${e.path}`))];
}
