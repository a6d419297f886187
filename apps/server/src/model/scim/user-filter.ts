import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Database } from "../../platform/db/schema.ts";

/**
 * A SCIM filter (scimmy's parsed form) as one SQL condition on users, when every part of it is about what
 * the table holds: then the database filters, counts and pages it with its indexes, however many people
 * match (`emails pr` over 100,000 people, a "changed since" sync past 5,000 changes). Undefined when any
 * part is not (an extension's records, an attribute kept as sent): protocols/scim/user-list.ts then narrows and lets
 * scimmy judge. SCIM semantics kept: userName, displayName and e-mails compare case-insensitively
 * (RFC 7643 §4.1, caseExact false), externalId exactly; a missing value is not equal to anything.
 */

type Eb = ExpressionBuilder<Database, "users">;
type Condition = Expression<SqlBool>;
type Column = RawBuilder<unknown>;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const orderOperators = { gt: ">", ge: ">=", lt: "<", le: "<=" } as const;

interface Comparison {
  negate: boolean;
  operator: string;
  value?: unknown;
}

/** ["eq", "x"], ["not", "eq", "x"], ["pr"], ["not", "pr"]. */
function comparisonOf(expression: unknown[]): Comparison | undefined {
  const negate = String(expression[0]).toLowerCase() === "not";
  const [operator, value, ...rest] = expression.slice(negate ? 1 : 0);
  if (typeof operator !== "string" || rest.length > 0) return undefined;
  return { negate, operator: operator.toLowerCase(), value };
}

const and = (conditions: Condition[]): Condition =>
  conditions.length === 1 && conditions[0] ? conditions[0] : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const isTrue = (value: unknown) => value === true || (typeof value === "string" && value.toLowerCase() === "true");
const isFalse = (value: unknown) => value === false || (typeof value === "string" && value.toLowerCase() === "false");

/** A text column: case-folded unless case-exact; pr is "has a value". */
function textCondition(column: Column, { operator, value }: Comparison, caseExact: boolean): Condition | undefined {
  if (operator === "pr") return sql<SqlBool>`(${column} is not null and ${column} <> '')`;
  if (typeof value !== "string") return undefined;
  const wanted = caseExact ? value : value.toLowerCase();
  const subject = caseExact ? column : sql`lower(${column})`;
  if (operator === "eq") return sql<SqlBool>`${subject} = ${wanted}`;
  if (operator === "ne") return sql<SqlBool>`${subject} is distinct from ${wanted}`;
  if (operator === "co") return sql<SqlBool>`${subject} like ${`%${escapeLike(wanted)}%`}`;
  if (operator === "sw") return sql<SqlBool>`${subject} like ${`${escapeLike(wanted)}%`}`;
  if (operator === "ew") return sql<SqlBool>`${subject} like ${`%${escapeLike(wanted)}`}`;
  const order = orderOperators[operator as keyof typeof orderOperators];
  return order ? sql<SqlBool>`${subject} ${sql.raw(order)} ${wanted}` : undefined;
}

function dateCondition(column: Column, { operator, value }: Comparison): Condition | undefined {
  if (operator === "pr") return sql<SqlBool>`true`;
  const date = typeof value === "string" ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return undefined;
  if (operator === "eq") return sql<SqlBool>`${column} = ${date}`;
  if (operator === "ne") return sql<SqlBool>`${column} <> ${date}`;
  const order = orderOperators[operator as keyof typeof orderOperators];
  return order ? sql<SqlBool>`${column} ${sql.raw(order)} ${date}` : undefined;
}

function activeCondition({ operator, value }: Comparison): Condition | undefined {
  if (operator === "pr") return sql<SqlBool>`true`;
  if (operator !== "eq" && operator !== "ne") return undefined;
  if (!isTrue(value) && !isFalse(value)) return undefined;
  const active = isTrue(value) === (operator === "eq");
  return sql<SqlBool>`(status = ${active ? "active" : "disabled"})`;
}

function idCondition({ operator, value }: Comparison): Condition | undefined {
  if (operator === "pr") return sql<SqlBool>`true`;
  if ((operator !== "eq" && operator !== "ne") || typeof value !== "string") return undefined;
  if (!uuidPattern.test(value)) return sql<SqlBool>`${operator === "ne"}`;
  return operator === "eq" ? sql<SqlBool>`id = ${value}` : sql<SqlBool>`id <> ${value}`;
}

/** A person has at most one e-mail, shown as type "work" and primary (user-model.ts). */
function emailPartCondition(part: string, comparison: Comparison): Condition | undefined {
  if (part === "value") return textCondition(sql`email`, comparison, false);
  const hasEmail = sql<SqlBool>`(email is not null)`;
  const { operator, value } = comparison;
  if (operator === "pr") return hasEmail;
  if (part === "type" && typeof value === "string" && (operator === "eq" || operator === "ne")) {
    const matches = value.toLowerCase() === "work";
    return operator === "eq" ? (matches ? hasEmail : sql<SqlBool>`false`) : matches ? sql`not ${hasEmail}` : sql`true`;
  }
  if (part === "primary" && operator === "eq" && (isTrue(value) || isFalse(value)))
    return isTrue(value) ? hasEmail : sql<SqlBool>`false`;
  return undefined;
}

function leafCondition(path: string, comparison: Comparison): Condition | undefined {
  switch (path) {
    case "id":
      return idCondition(comparison);
    case "username":
      return textCondition(sql`username`, comparison, false);
    case "externalid":
      return textCondition(sql`scim_external_id`, comparison, true);
    case "displayname":
    case "name.formatted":
      return textCondition(sql`full_name`, comparison, false);
    case "active":
      return activeCondition(comparison);
    case "emails":
    case "emails.value":
    case "emails.type":
    case "emails.primary":
      return emailPartCondition(path === "emails" ? "value" : (path.split(".")[1] ?? ""), comparison);
    case "meta.lastmodified":
      return dateCondition(sql`updated_at`, comparison);
    case "meta.created":
      return dateCondition(sql`created_at`, comparison);
    default:
      return undefined;
  }
}

/** One attribute's expressions (one, several ANDed, or a complex attribute's sub-attributes). */
function attributeCondition(path: string, expressions: unknown): Condition | undefined {
  if (expressions && typeof expressions === "object" && !Array.isArray(expressions)) {
    const parts = Object.entries(expressions).map(([sub, inner]) =>
      attributeCondition(`${path}.${sub.toLowerCase()}`, inner),
    );
    return parts.every((part): part is Condition => part !== undefined) ? and(parts) : undefined;
  }
  if (!Array.isArray(expressions) || expressions.length === 0) return undefined;
  const list: unknown[][] = expressions.every(Array.isArray) ? (expressions as unknown[][]) : [expressions];
  const conditions: Condition[] = [];
  for (const expression of list) {
    const comparison = comparisonOf(expression);
    const condition = comparison && leafCondition(path, comparison);
    if (!comparison || !condition) return undefined;
    // A comparison with no value (NULL) is false, never unknown: "not" then turns it true, as scimmy does.
    const definite = sql<SqlBool>`coalesce(${condition}, false)`;
    conditions.push(comparison.negate ? sql<SqlBool>`not ${definite}` : definite);
  }
  return and(conditions);
}

/** The whole filter (its "or" branches) as one condition, or undefined when a part is not the table's. */
export function exactFilterCondition(branches: Record<string, unknown>[]): ((eb: Eb) => Condition) | undefined {
  const conditions: Condition[] = [];
  for (const branch of branches) {
    const parts = Object.entries(branch).map(([attribute, expressions]) =>
      attributeCondition(attribute.toLowerCase(), expressions),
    );
    if (parts.length === 0 || !parts.every((part): part is Condition => part !== undefined)) return undefined;
    conditions.push(and(parts));
  }
  if (conditions.length === 0) return undefined;
  const condition =
    conditions.length === 1 && conditions[0] ? conditions[0] : sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
  return () => condition;
}
