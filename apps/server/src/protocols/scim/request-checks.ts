import { text } from "@kpi-id/contracts";
import SCIMMY from "scimmy";
import { z } from "zod";
import { scimMaxResults } from "./constants.ts";
import { ScimError } from "./errors.ts";

type Definition = InstanceType<typeof SCIMMY.Types.SchemaDefinition>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first attribute of a body the schema does not declare ("name.nickName"), looking one level into complex ones. */
function firstUnknown(definition: Definition, body: Record<string, unknown>, extension?: string): string | undefined {
  for (const [key, value] of Object.entries(body)) {
    if (!extension && (key === "schemas" || key === "meta")) continue;
    const path = extension ? `${extension}:${key}` : key;
    let attribute: ReturnType<Definition["attribute"]>;
    try {
      attribute = definition.attribute(path);
    } catch {
      return path;
    }
    if (attribute instanceof SCIMMY.Types.SchemaDefinition) {
      if (!isPlainObject(value)) return path;
      const inner = firstUnknown(definition, value, path);
      if (inner) return inner;
      continue;
    }
    const items = Array.isArray(value) ? value : [value];
    if (String(attribute.type) !== "complex") continue;
    for (const item of items) {
      if (!isPlainObject(item)) continue;
      for (const sub of Object.keys(item)) {
        try {
          definition.attribute(`${path}.${sub}`);
        } catch {
          return `${path}.${sub}`;
        }
      }
    }
  }
  return undefined;
}

/**
 * scimmy drops attributes its schema does not know; a provisioning client that misspells one would never
 * learn its data went nowhere, so an unknown attribute is refused (400 invalidSyntax) instead.
 */
export function refuseUnknownAttributes(definition: Definition, body: unknown): void {
  if (!isPlainObject(body)) {
    throw new ScimError("scim.invalid_request", "invalidSyntax", "the body must be one JSON object");
  }
  const unknown = firstUnknown(definition, body);
  if (unknown) throw new ScimError("scim.invalid_request", "invalidSyntax", `unknown attribute '${unknown}'`);
}

const positiveInt = text()
  .regex(/^\d{1,9}$/, "must be a whole number")
  .transform((value) => Number.parseInt(value, 10));

/** RFC 7644 §3.4.2 query parameters, checked; scimmy parses the filter and attribute lists. */
export const listQuerySchema = z.object({
  filter: text().max(4096).optional(),
  attributes: text().max(2048).optional(),
  excludedAttributes: text().max(2048).optional(),
  sortBy: text().max(256).optional(),
  sortOrder: z.enum(["ascending", "descending"]).optional(),
  startIndex: positiveInt.optional(),
  count: positiveInt.optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

export interface ListParams {
  filter?: string;
  attributes?: string;
  excludedAttributes?: string;
  sortBy?: string;
  sortOrder?: "ascending" | "descending";
  startIndex: number;
  count: number;
}

export function listParams(query: unknown): ListParams {
  const parsed = listQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ScimError("scim.invalid_request", "invalidValue", `${issue?.path.join(".")}: ${issue?.message}`);
  }
  const { startIndex, count, ...rest } = parsed.data;
  return {
    ...rest,
    startIndex: Math.max(1, startIndex ?? 1),
    count: Math.min(count ?? scimMaxResults, scimMaxResults),
  };
}

/** The If-Match precondition (RFC 7644 §3.14): a mismatch is 412, "*" or no header always passes. */
export function checkIfMatch(header: string | string[] | undefined, version: string): void {
  if (header === undefined) return;
  const values = (Array.isArray(header) ? header.join(",") : header).split(",").map((value) => value.trim());
  const strip = (value: string) => value.replace(/^W\//, "");
  if (values.includes("*") || values.some((value) => strip(value) === strip(version))) return;
  throw new ScimError("scim.version_mismatch", undefined, "the resource has changed since that version");
}

/** If-None-Match (RFC 7644 §3.14, RFC 9110 §13.1.2): the client's copy is current, so 304 with no body. */
export function isNotModified(header: string | string[] | undefined, version: string): boolean {
  if (header === undefined) return false;
  const values = (Array.isArray(header) ? header.join(",") : header).split(",").map((value) => value.trim());
  const strip = (value: string) => value.replace(/^W\//, "");
  return values.includes("*") || values.some((value) => strip(value) === strip(version));
}

/**
 * Attributes of the core User schema that KPI ID does not take from provisioning: scimmy knows them, so it
 * would accept and drop them. Access and roles come from the operator's rules and the console, not from an
 * HR feed. Refused, naming the attribute. (A password is the operator's choice: user-password.ts.)
 */
const notProvisioned = ["roles", "entitlements"] as const;

function refusedAttribute(name: string): never {
  throw new ScimError(
    "scim.invalid_request",
    "mutability",
    `'${name}' cannot be set over SCIM: access comes from KPI ID's rules`,
  );
}

/** The top-level attribute a PATCH path names ("roles[type eq \"x\"].value" → "roles"). */
const pathAttribute = (path: string) =>
  (/^(?:urn:[^:]+(?::[^:]+)*:)?([A-Za-z]+)/.exec(path.trim())?.[1] ?? "").toLowerCase();

/** POST and PUT bodies, and every PATCH operation (by its path or, without one, its value's attributes). */
export function refuseNotProvisioned(body: unknown): void {
  if (!isPlainObject(body)) return;
  // An empty list asks for nothing: Entra ID sends "roles": [] with every new person.
  const present = (object: Record<string, unknown>) =>
    Object.keys(object).find(
      (key) =>
        (notProvisioned as readonly string[]).includes(key.toLowerCase()) &&
        !(Array.isArray(object[key]) && (object[key] as unknown[]).length === 0),
    );
  const direct = present(body);
  if (direct) refusedAttribute(direct.toLowerCase());
  const operations = Array.isArray(body.Operations) ? body.Operations : [];
  for (const operation of operations) {
    if (!isPlainObject(operation)) continue;
    const { path, value } = operation;
    if (typeof path === "string" && (notProvisioned as readonly string[]).includes(pathAttribute(path)))
      refusedAttribute(pathAttribute(path));
    if (typeof path !== "string" && isPlainObject(value)) {
      const named = present(value);
      if (named) refusedAttribute(named.toLowerCase());
    }
  }
}
