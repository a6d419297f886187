import type { FastifyInstance } from "fastify";

/** One operation to fuzz: method, path template and what its OpenAPI entry declares. */
export interface Endpoint {
  method: string;
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
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
  "GET /oidc/interaction/{uid}",
  "POST /oidc/interaction/{uid}/confirm",
  "GET /{lang}/login",
  "GET /kpi-id-signin.js",
].map((line) => {
  const [method = "GET", path = "/"] = line.split(" ");
  return { method, path, pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ""), query: {} };
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
  return [...documented, ...undocumented.filter((e) => !known.has(`${e.method} ${e.path}`))];
}
