import type SCIMMY from "scimmy";
import { expandPathless, refuseReadOnly } from "./patch-paths.ts";
import { enterpriseUserSchemaId } from "./user-fields.ts";

type Definition = InstanceType<typeof SCIMMY.Types.SchemaDefinition>;

/**
 * PATCH operations as real clients write them, brought to what RFC 7644 §3.5.2 and scimmy expect, before
 * scimmy applies them. Each rewrite names the client that needs it; anything else passes unchanged.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Entra ID before its compliance fix (and apps without the feature flag) sends active as "True"/"False". */
function legacyBoolean(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lowered = value.trim().toLowerCase();
  return lowered === "true" ? true : lowered === "false" ? false : value;
}

/** `emails[type eq "work"].value`: an attribute, the type its filter names, and the sub-attribute. */
const typedValuePath = /^([A-Za-z]+)\[\s*type\s+eq\s+"([^"]+)"\s*\]\.([A-Za-z]+)$/i;

/**
 * Entra ID adds a person's first work e-mail (or phone) by a filtered path; with no element of that type
 * there is nothing for the filter to match (scimmy: noTarget), so it becomes an add of the whole element.
 */
function addTypedElement(operation: Record<string, unknown>, current: Record<string, unknown>) {
  const match = typeof operation.path === "string" ? typedValuePath.exec(operation.path.trim()) : null;
  const op = String(operation.op).toLowerCase();
  if (!match || (op !== "add" && op !== "replace") || isPlainObject(operation.value)) return undefined;
  const [, attribute = "", type = "", sub = ""] = match;
  const list = current[attribute];
  const elements = Array.isArray(list) ? list : [];
  const hasType = elements.some(
    (item) => isPlainObject(item) && String(item.type).toLowerCase() === type.toLowerCase(),
  );
  if (hasType) return undefined;
  const element = { type, [sub]: operation.value, ...(elements.length === 0 ? { primary: true } : {}) };
  return { op: "add", path: attribute, value: [element] };
}

function normalizeOperation(operation: unknown, current: Record<string, unknown>): unknown {
  if (!isPlainObject(operation)) return operation;
  const typed = addTypedElement(operation, current);
  if (typed) return typed;
  const path = typeof operation.path === "string" ? operation.path.trim() : undefined;
  let value = operation.value;
  if (path?.toLowerCase() === "active") value = legacyBoolean(value);
  // Entra sets the manager by path with the manager's id alone; the schema's manager is complex.
  if (path?.toLowerCase() === `${enterpriseUserSchemaId}:manager`.toLowerCase() && typeof value === "string")
    value = { value };
  return { ...operation, value };
}

/**
 * The PatchOp body with each operation in a shape scimmy applies as the client meant it: a pathless
 * operation becomes one per attribute (patch-paths.ts; Okta's and Entra ID's `{"active": false}` is then
 * the `active` path), read-only attributes are refused, and each rewrite above applies to both forms.
 */
export function normalizePatch(body: unknown, current: Record<string, unknown>, definition: Definition): unknown {
  if (!isPlainObject(body) || !Array.isArray(body.Operations)) return body;
  const operations = body.Operations.flatMap((operation: unknown) => expandPathless(operation, definition))
    .flatMap((operation) => refuseReadOnly(operation, definition))
    .map((operation) => normalizeOperation(operation, current));
  return { ...body, Operations: operations };
}

/** `"` and `\` inside a filter's quoted value. */
const filterString = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Entra ID removes group members as `{"op": "Remove", "path": "members", "value": [{"$ref": null, "value": id}]}`;
 * scimmy compares each whole element ($ref included) with the members, finds none and removes nothing, so
 * each value becomes the filtered removal Okta sends, `members[value eq "id"]` (RFC 7644 §3.5.2.2).
 */
export function normalizeGroupPatch(body: unknown): unknown {
  if (!isPlainObject(body) || !Array.isArray(body.Operations)) return body;
  const operations = body.Operations.flatMap((operation: unknown) => {
    if (!isPlainObject(operation) || String(operation.op).toLowerCase() !== "remove") return [operation];
    if (typeof operation.path !== "string" || operation.path.trim().toLowerCase() !== "members") return [operation];
    if (!Array.isArray(operation.value)) return [operation];
    const values = operation.value.map((item) => (isPlainObject(item) ? item.value : undefined));
    if (!values.every((value): value is string => typeof value === "string")) return [operation];
    return values.map((value) => ({ op: "remove", path: `members[value eq ${filterString(value)}]` }));
  });
  return { ...body, Operations: operations };
}
