import fc from "fast-check";
import type { Endpoint, JsonSchema } from "./endpoints.ts";

const nasty = fc.constantFrom(
  "",
  " ",
  "null",
  "undefined",
  "0",
  "-1",
  "1e309",
  "NaN",
  "true",
  "[]",
  "{}",
  "%00",
  "\u0000",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "https://evil.example/",
  "//evil.example",
  "javascript:alert(1)",
  "\r\nSet-Cookie: x=1",
  "00000000-0000-0000-0000-000000000000",
  "a".repeat(5000),
  "😀".repeat(300),
  "__proto__",
  "constructor",
);

/** Text PostgreSQL cannot store: a U+0000 somewhere in an otherwise ordinary string. */
const unstorable = fc
  .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
  .map(([before, after]) => `${before}\u0000${after}`);

const anyText = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  nasty,
  unstorable,
);

/** Values near what the schema wants and far from it, so both validation and the logic behind it run. */
export function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const wild = fc.oneof(fc.jsonValue({ maxDepth: 2 }), anyText, fc.constant(null));
  if (!schema || depth > 4) return wild;
  const options: fc.Arbitrary<unknown>[] = [wild];
  if (schema.enum) options.push(fc.constantFrom(...schema.enum));
  if (schema.const !== undefined) options.push(fc.constant(schema.const));
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    options.push(valueFor(alternative, depth + 1));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  for (const type of types) {
    if (type === "string") {
      options.push(schema.format === "uuid" ? fc.uuid() : fc.string({ maxLength: (schema.maxLength ?? 40) + 5 }));
      options.push(unstorable);
    }
    if (type === "integer" || type === "number") options.push(fc.integer(), fc.double());
    if (type === "boolean") options.push(fc.boolean());
    if (type === "array") options.push(fc.array(valueFor(schema.items, depth + 1), { maxLength: 5 }));
    if (type === "object" && schema.properties) options.push(objectFor(schema, depth));
  }
  return fc.oneof(...options);
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const shape = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, value]) => [key, valueFor(value, depth + 1)]),
  );
  return fc.record(shape, { requiredKeys: [] });
}

/** The proxy the fuzzed app trusts (TRUST_PROXY): some requests arrive through it. */
export const fuzzProxyAddress = "10.0.0.1";

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The socket's peer: IPv4, IPv6 (its /64 is what throttling counts), or the trusted proxy. */
  remoteAddress: string;
  payload?: string | Buffer;
}

const contentTypes = fc.constantFrom(
  "application/json",
  "application/scim+json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz-boundary",
  "multipart/mixed; boundary=fuzz-boundary",
  "multipart/form-data",
  "application/xml",
  "application/json; charset=latin1",
  "",
);

const multipartBody = fc
  .tuple(fc.string({ maxLength: 20 }), fc.oneof(fc.base64String({ maxLength: 400 }), anyText), fc.boolean())
  .map(([name, value, closed]) =>
    [
      "--fuzz-boundary",
      `Content-Disposition: form-data; name="${name || "encodeData"}"`,
      "",
      value,
      closed ? "--fuzz-boundary--" : "",
      "",
    ].join("\r\n"),
  );

/** Values a fuzzed request may carry that the service knows (a real client id, its secret): they get further. */
export type KnownValues = Record<string, string[]>;

function parameterValue(name: string, known: KnownValues, schema?: JsonSchema): fc.Arbitrary<unknown> {
  const values = known[name];
  const generated = valueFor(schema);
  return values?.length ? fc.oneof(fc.constantFrom(...values), generated) : generated;
}

/** A form body of the parameters the endpoint reads, some known, some generated, some left out. */
function formFor(names: string[], known: KnownValues): fc.Arbitrary<string> {
  const pairs = names.map((name) =>
    fc.option(
      parameterValue(name, known, { type: "string" }).map((value) => [
        name,
        typeof value === "string" ? value : (JSON.stringify(value) ?? ""),
      ]),
      { nil: undefined },
    ),
  );
  return fc
    .tuple(...pairs)
    .map((chosen) => new URLSearchParams(chosen.filter((pair) => pair !== undefined)).toString());
}

interface Body {
  payload?: string;
  /** Set when the body only makes sense with its own content type (a form). */
  contentType?: string;
}

function bodyFor(endpoint: Endpoint, known: KnownValues): fc.Arbitrary<Body> {
  const json = valueFor(endpoint.body).map((value) => JSON.stringify(value) ?? "null");
  const deep = fc.integer({ min: 50, max: 5000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`);
  const any = fc
    .oneof(
      { weight: 5, arbitrary: json },
      { weight: 1, arbitrary: anyText },
      { weight: 1, arbitrary: multipartBody },
      { weight: 1, arbitrary: deep },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => `{"username": "${s}`) },
    )
    .map((payload): Body => ({ payload }));
  if (!endpoint.form) return any;
  const form = formFor(endpoint.form, known).map(
    (payload): Body => ({ payload, contentType: "application/x-www-form-urlencoded" }),
  );
  return fc.oneof({ weight: 3, arbitrary: form }, { weight: 1, arbitrary: any });
}

function pathFor(endpoint: Endpoint): fc.Arbitrary<string> {
  if (endpoint.pathParams.length === 0) return fc.constant(endpoint.path);
  const segment = fc.oneof(fc.uuid(), fc.constantFrom("uk", "en", "xx"), anyText);
  return fc
    .array(segment, { minLength: endpoint.pathParams.length, maxLength: endpoint.pathParams.length })
    .map((values) =>
      endpoint.pathParams.reduce(
        (path, name, index) => path.replace(`{${name}}`, encodeURIComponent(String(values[index] ?? ""))),
        endpoint.path,
      ),
    );
}

function queryFor(endpoint: Endpoint, known: KnownValues): fc.Arbitrary<string> {
  const declared = Object.entries(endpoint.query).map(([name, schema]) =>
    fc.option(
      parameterValue(name, known, schema).map(
        (value) => [name, typeof value === "string" ? value : (JSON.stringify(value) ?? "")] as const,
      ),
      { nil: undefined },
    ),
  );
  const extra = fc.array(fc.tuple(anyText, anyText), { maxLength: 3 });
  return fc.tuple(fc.tuple(...declared), extra, fc.boolean()).map(([pairs, more, repeat]) => {
    const params = new URLSearchParams();
    for (const pair of pairs) if (pair) params.append(pair[0], pair[1]);
    // A repeated key turns a value into an array in the parsed query.
    if (repeat) for (const pair of pairs) if (pair) params.append(pair[0], pair[1]);
    for (const [key, value] of more) params.append(key, value);
    const text = params.toString();
    return text ? `?${text}` : "";
  });
}

const headerValue = fc.oneof(
  anyText.map((s) => s.replace(/[^\t\x20-\x7e]/g, "")),
  fc.constant(""),
);

function headersFor(origin: string, known: KnownValues): fc.Arbitrary<Record<string, string>> {
  return fc
    .record(
      {
        "content-type": contentTypes,
        origin: fc.oneof(fc.constant(origin), fc.constant("https://evil.example"), headerValue),
        "accept-language": fc.oneof(fc.constantFrom("uk", "en", "en-US,en;q=0.9", "*", "zz;q=abc"), headerValue),
        accept: fc.constantFrom("application/json", "text/html", "*/*", ""),
        cookie: fc.oneof(
          fc.string({ maxLength: 60 }).map((s) => `kpi_id_session=${encodeURIComponent(s)}`),
          fc.constant("kpi_id_session=s%3Aforged.signature; i18next=en-US"),
          headerValue.map((s) => `kpi_id_google=${encodeURIComponent(s)}; kpi_id_session=`),
          headerValue.map((s) => `kpi_id_device=${encodeURIComponent(s)}`),
          // The pending sign-in cookie GET /api/sign-in/continuing reads: garbage, and well-formed but unsigned.
          headerValue.map((s) => `kpi_id_continue=${encodeURIComponent(s)}`),
          anyText.map(
            (uid) =>
              `kpi_id_continue=${encodeURIComponent(`s:${JSON.stringify({ continueTo: { kind: "protocol", protocol: "oidc", waiting: uid, path: `/oidc/auth/${uid}` }, expiresAt: 4e9 })}.forged`)}`,
          ),
          headerValue,
        ),
        authorization: fc.oneof(
          fc.constantFrom("", ...(known.authorization ?? [])),
          fc.string({ maxLength: 40 }).map((s) => `Basic ${Buffer.from(s).toString("base64")}`),
          headerValue.map((s) => `Bearer ${s}`),
          headerValue,
        ),
        // Chains a client could forge, as the trusted proxy (fuzzProxyAddress) would pass them on.
        "x-forwarded-for": fc.oneof(
          fc.ipV4(),
          fc.ipV6(),
          fc
            .array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.constant("127.0.0.1")), { minLength: 1, maxLength: 4 })
            .map((chain) => chain.join(", ")),
          headerValue,
        ),
        "x-document-request-trace-id": headerValue,
        "x-diia-id-action": fc.constantFrom("auth", "hashedFilesSigning", ""),
      },
      { requiredKeys: [] },
    )
    .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== "")));
}

const remoteAddress = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constant(fuzzProxyAddress), fc.constant("::ffff:127.0.0.1"));

/** A whole request against one endpoint: its method mostly, sometimes another. */
export function requestFor(endpoint: Endpoint, origin: string, known: KnownValues = {}): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant(endpoint.method) },
    { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD") },
  );
  return fc
    .tuple(
      method,
      pathFor(endpoint),
      queryFor(endpoint, known),
      headersFor(origin, known),
      bodyFor(endpoint, known),
      remoteAddress,
    )
    .map(([verb, path, query, headers, body, peer]) => ({
      method: verb,
      url: `${path}${query}`,
      remoteAddress: peer,
      headers: body.contentType ? { ...headers, "content-type": body.contentType } : headers,
      payload: verb === "GET" || verb === "HEAD" ? undefined : body.payload,
    }));
}
