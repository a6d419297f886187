import { ScimError } from "./errors.ts";

/**
 * RFC 7644 §3.4.2.2 filters, parsed here rather than by scimmy, whose parser (1.3.5) loses a conjunction
 * after a parenthesised group (`a and (b or c) and d` came out as `(a and b) or (a and c) or (d and b) or
 * (d and c)`), distributes `not` without De Morgan (`not (a or b)` became `not a or not b`) and refuses
 * nested groups. The result is the form scimmy's Filter takes and model/scim/user-filter.ts reads: a list of "or"
 * branches, each an object of attribute → comparison (`["eq", "x"]`, `["not", "pr"]`, several as a list),
 * sub-attributes nested (`{name: {givenName: [...]}}`). Precedence: not, then and, then or; parentheses group.
 */

type Comparison = unknown[];
export type Branch = Record<string, unknown>;
type Dnf = Branch[];

const operators = new Set(["eq", "ne", "co", "sw", "ew", "gt", "lt", "ge", "le"]);
const maxBranches = 64;

const invalid = (detail: string): never => {
  throw new ScimError("scim.invalid_request", "invalidFilter", detail);
};

/** Words, quoted strings and brackets; a string keeps its quotes so that it is never read as a keyword. */
function tokenize(filter: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*(?:("(?:[^"\\]|\\.)*")|([()[\]])|([^\s()[\]"]+))/y;
  let index = 0;
  while (filter.slice(index).trim() !== "") {
    pattern.lastIndex = index;
    const match = pattern.exec(filter);
    if (!match) return invalid(`unexpected text in filter at ${index}`);
    tokens.push(match[1] ?? match[2] ?? match[3] ?? "");
    index = pattern.lastIndex;
  }
  return tokens;
}

function literal(token: string | undefined): unknown {
  if (token === undefined) return invalid("a comparison needs a value");
  if (token.startsWith('"')) {
    try {
      return JSON.parse(token) as string;
    } catch {
      return invalid(`bad string ${token}`);
    }
  }
  const lowered = token.toLowerCase();
  if (lowered === "true" || lowered === "false") return lowered === "true";
  if (lowered === "null") return null;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(token)) return Number(token);
  return invalid(`'${token}' is not a value`);
}

/** An attribute path as the nested keys scimmy uses: a URN prefix stays with the first attribute. */
function pathKeys(path: string): string[] {
  if (!/^(urn:[^\s]+:)?[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)*$/i.test(path)) invalid(`'${path}' is not an attribute`);
  const colon = path.lastIndexOf(":");
  const prefix = colon >= 0 ? path.slice(0, colon + 1) : "";
  const [first = "", ...rest] = path.slice(colon + 1).split(".");
  const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
  return [`${prefix}${prefix ? first : camel(first)}`, ...rest];
}

function leaf(keys: string[], comparison: Comparison): Branch {
  const [first = "", ...rest] = keys;
  return { [first]: rest.length ? leaf(rest, comparison) : comparison };
}

const isComparison = (value: unknown): value is Comparison => Array.isArray(value) && !value.every(Array.isArray);

/** Two conditions on one attribute (or sub-attribute), both to hold. */
function mergeValues(a: unknown, b: unknown): unknown {
  if (!Array.isArray(a) && !Array.isArray(b) && a && b && typeof a === "object" && typeof b === "object")
    return mergeBranches(a as Branch, b as Branch);
  const list = (value: unknown) => (isComparison(value) ? [value] : Array.isArray(value) ? value : [value]);
  return [...list(a), ...list(b)];
}

function mergeBranches(a: Branch, b: Branch): Branch {
  const merged: Branch = { ...a };
  for (const [key, value] of Object.entries(b)) merged[key] = key in merged ? mergeValues(merged[key], value) : value;
  return merged;
}

function and(a: Dnf, b: Dnf): Dnf {
  const result = a.flatMap((left) => b.map((right) => mergeBranches(left, right)));
  if (result.length > maxBranches) invalid("the filter has too many alternatives");
  return result;
}

/** Every comparison of a branch, with its attribute keys. */
function comparisonsOf(branch: Branch, keys: string[] = []): [string[], Comparison][] {
  return Object.entries(branch).flatMap(([key, value]): [string[], Comparison][] => {
    if (isComparison(value)) return [[[...keys, key], value]];
    if (Array.isArray(value)) return value.map((item) => [[...keys, key], item as Comparison]);
    return comparisonsOf(value as Branch, [...keys, key]);
  });
}

const negate = (comparison: Comparison): Comparison =>
  String(comparison[0]).toLowerCase() === "not" ? comparison.slice(1) : ["not", ...comparison];

/** not (b1 or b2 …) = (not b1) and (not b2) …, and not (c1 and c2) = (not c1) or (not c2) (De Morgan). */
function not(dnf: Dnf): Dnf {
  return dnf
    .map((branch): Dnf => comparisonsOf(branch).map(([keys, comparison]) => leaf(keys, negate(comparison))))
    .reduce((acc, next) => and(acc, next));
}

class Parser {
  private position = 0;
  private readonly tokens: string[];
  private readonly prefix: string[];
  constructor(tokens: string[], prefix: string[] = []) {
    this.tokens = tokens;
    this.prefix = prefix;
  }
  private peek = () => this.tokens[this.position];
  private keyword = (word: string) => this.peek()?.toLowerCase() === word;
  private next = () => this.tokens[this.position++];

  parse(): Dnf {
    const result = this.or();
    if (this.position < this.tokens.length) invalid(`unexpected '${this.peek()}' in filter`);
    return result;
  }
  private or(): Dnf {
    let result = this.and();
    while (this.keyword("or")) {
      this.next();
      result = [...result, ...this.and()];
      if (result.length > maxBranches) invalid("the filter has too many alternatives");
    }
    return result;
  }
  private and(): Dnf {
    let result = this.unary();
    while (this.keyword("and")) {
      this.next();
      result = and(result, this.unary());
    }
    return result;
  }
  private unary(): Dnf {
    if (this.keyword("not")) {
      this.next();
      if (this.peek() !== "(") invalid("not must be followed by a parenthesised filter");
      return not(this.unary());
    }
    if (this.peek() === "(") {
      this.next();
      const inner = this.or();
      if (this.next() !== ")") invalid("a parenthesis is not closed");
      return inner;
    }
    return this.comparison();
  }
  private comparison(): Dnf {
    const path = this.next();
    if (path === undefined || path.startsWith('"') || "()[]".includes(path)) return invalid("an attribute is missing");
    const keys = [...this.prefix, ...pathKeys(path)];
    if (this.peek() === "[") {
      this.next();
      const start = this.position;
      let depth = 1;
      while (this.position < this.tokens.length && depth > 0) {
        const token = this.next();
        if (token === "[") depth += 1;
        if (token === "]") depth -= 1;
      }
      if (depth !== 0) invalid("a bracket is not closed");
      return new Parser(this.tokens.slice(start, this.position - 1), keys).parse();
    }
    const operator = this.next()?.toLowerCase();
    if (operator === "pr") return [leaf(keys, ["pr"])];
    if (!operator || !operators.has(operator)) return invalid(`'${operator ?? ""}' is not a filter operator`);
    return [leaf(keys, [operator, literal(this.next())])];
  }
}

/** The filter as "or" branches of "and"ed comparisons (scimmy's form), or 400 invalidFilter naming what is wrong. */
export function parseScimFilter(filter: string): Dnf {
  const tokens = tokenize(filter);
  if (tokens.length === 0) invalid("the filter is empty");
  return new Parser(tokens).parse();
}
