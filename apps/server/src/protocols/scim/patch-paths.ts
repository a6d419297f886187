import SCIMMY from "scimmy";
import { ScimError } from "./errors.ts";

/**
 * PATCH operations without a `path` (RFC 7644 §3.5.2: the value is an object of attributes, as Okta's
 * `{"op": "replace", "value": {"active": false}}` and Entra ID's `{"op": "Replace", "value":
 * {"name.givenName": …}}`) turned into one operation per attribute with that attribute as its path, so
 * both forms go through the same rewrites (patch-shapes.ts) and the same checks. scimmy applies a
 * pathless `replace` as an `add`, which appends to a multi-valued attribute: a replaced e-mail list kept
 * the old primary address and the new one was lost under a 200.
 */

type Definition = InstanceType<typeof SCIMMY.Types.SchemaDefinition>;
type Operation = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the schema declares at a path (filters dropped: `emails[type eq "work"].value` is `emails.value`). */
function attributeAt(definition: Definition, path: string): ReturnType<Definition["attribute"]> | undefined {
  try {
    return definition.attribute(path.replace(/\[[^\]]*\]/g, ""));
  } catch {
    return undefined;
  }
}

function isSingularComplex(attribute: ReturnType<Definition["attribute"]> | undefined): boolean {
  if (!attribute || isSchema(attribute)) return false;
  return String(attribute.type) === "complex" && !attribute.config.multiValued && !isReadOnlyAttribute(attribute);
}

function isSchema(attribute: ReturnType<Definition["attribute"]>): attribute is Definition {
  return attribute instanceof SCIMMY.Types.SchemaDefinition;
}

function isReadOnlyAttribute(attribute: ReturnType<Definition["attribute"]>): boolean {
  if (isSchema(attribute)) return false;
  return attribute.config.mutable === false || attribute.config.direction === "out";
}

/**
 * The attributes of a pathless value, one operation each. An extension's object is opened into its
 * attributes. A singular complex attribute (`name`, the enterprise `manager`) becomes an `add` by path,
 * which scimmy merges into what is there: RFC 7644 §3.5.2.3 leaves the sub-attributes a replace does not
 * name as they were, and scimmy's `replace` by path would clear them.
 */
function expandValue(op: unknown, prefix: string, value: Record<string, unknown>, definition: Definition) {
  const operations: Operation[] = [];
  for (const [key, item] of Object.entries(value)) {
    const path = `${prefix}${key}`;
    const attribute = path.includes("[") ? undefined : attributeAt(definition, path);
    if (attribute && isSchema(attribute) && isPlainObject(item))
      operations.push(...expandValue(op, `${path}:`, item, definition));
    else if (isSingularComplex(attribute) && isPlainObject(item)) operations.push({ op: "add", path, value: item });
    else operations.push({ op, path, value: item });
  }
  return operations;
}

/** One operation per attribute; operations with a path, and malformed ones, as they came (scimmy judges those). */
export function expandPathless(operation: unknown, definition: Definition): unknown[] {
  if (!isPlainObject(operation) || operation.path !== undefined || !isPlainObject(operation.value)) return [operation];
  const op = String(operation.op).toLowerCase();
  if (op !== "add" && op !== "replace") return [operation];
  return expandValue(operation.op, "", operation.value, definition);
}

/**
 * A read-only attribute (`groups`, `meta`, the KPI extension's `affiliations`, the manager's `displayName`)
 * is refused by path and without one alike (RFC 7644 §3.12 `mutability`): scimmy would drop it and answer 200.
 * An empty list asks for nothing (Okta sends `"groups": []`), so that operation is left out.
 */
export function refuseReadOnly(operation: unknown, definition: Definition): unknown[] {
  if (!isPlainObject(operation) || typeof operation.path !== "string") return [operation];
  const path = operation.path.trim();
  // Split at the dots between attributes, not the one in an extension's "2.0".
  const segments = path.replace(/\[[^\]]*\]/g, "").split(/(?<!\d)\.|\.(?!\d)/);
  const readOnly = segments.some((_, index) => {
    const attribute = attributeAt(definition, segments.slice(0, index + 1).join("."));
    return attribute !== undefined && isReadOnlyAttribute(attribute);
  });
  if (!readOnly) return [operation];
  if (Array.isArray(operation.value) && operation.value.length === 0) return [];
  throw new ScimError("scim.invalid_request", "mutability", `'${path}' is read-only and cannot be changed over SCIM`);
}
