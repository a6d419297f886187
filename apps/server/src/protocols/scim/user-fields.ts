import { personSchema } from "../../model/users/service.ts";

/** RFC 7643 §4.3: the enterprise extension Entra ID's default mapping sends (employeeNumber, department, manager). */
export const enterpriseUserSchemaId = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

/**
 * Core User attributes KPI ID does not act on but keeps as the client sent them and answers back (docs/scim.md):
 * a client that reads back what it wrote sees no difference and does not send it again every cycle.
 */
const keptCoreAttributes = [
  "title",
  "nickName",
  "profileUrl",
  "userType",
  "preferredLanguage",
  "locale",
  "timezone",
  "phoneNumbers",
  "addresses",
  "ims",
  "photos",
] as const;
const nameParts = ["givenName", "familyName", "middleName", "honorificPrefix", "honorificSuffix"] as const;

export type KeptAttributes = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === "" ||
  (Array.isArray(value) && value.length === 0) ||
  (isPlainObject(value) && Object.keys(value).length === 0);

/** What of a written User is kept as sent: the core attributes above, the name's parts, the enterprise extension. */
export function keptAttributesOf(instance: Record<string, unknown>): KeptAttributes | null {
  const kept: KeptAttributes = {};
  for (const key of keptCoreAttributes) if (!isEmpty(instance[key])) kept[key] = instance[key];
  const name = isPlainObject(instance.name) ? instance.name : {};
  const parts = Object.fromEntries(nameParts.flatMap((part) => (isEmpty(name[part]) ? [] : [[part, name[part]]])));
  if (Object.keys(parts).length) kept.name = parts;
  const enterprise = instance[enterpriseUserSchemaId];
  if (isPlainObject(enterprise) && !isEmpty(enterprise)) kept[enterpriseUserSchemaId] = enterprise;
  return Object.keys(kept).length ? kept : null;
}

/** The same JSON whatever order its keys came in: a rewrite that changes nothing is seen as nothing. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

export interface NameInput {
  formatted?: string | undefined;
  displayName?: string | undefined;
  givenName?: string | undefined;
  familyName?: string | undefined;
  middleName?: string | undefined;
}

const clean = (value: string | undefined) => value?.trim() || undefined;
/** Surname first, as the university writes names ("Петренко Олена Іванівна"). */
const composed = (name: NameInput) =>
  [name.familyName, name.givenName, name.middleName].map(clean).filter(Boolean).join(" ") || undefined;

/**
 * The person's full name from what a write sent, by what it changed: a new name.formatted, else a new
 * displayName, else new name parts (surname first); a write that changed none keeps the name. Before this,
 * name.formatted always won, so Entra's PATCH of displayName or name.familyName answered 200 and changed nothing.
 */
export function chooseFullName(input: NameInput, before: (NameInput & { fullName: string }) | undefined): string {
  const changed = (key: keyof NameInput) =>
    clean(input[key]) !== undefined && clean(input[key]) !== clean(before?.[key]);
  const partsChanged = changed("givenName") || changed("familyName") || changed("middleName");
  const chosen = changed("formatted")
    ? clean(input.formatted)
    : changed("displayName")
      ? clean(input.displayName)
      : partsChanged
        ? composed(input)
        : (before?.fullName ?? (clean(input.formatted) || clean(input.displayName) || composed(input)));
  return personSchema.shape.fullName.parse(chosen ?? "");
}
