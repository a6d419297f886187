import { type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * What the operator typed, read once, and the SQL conditions of the people search's ranks
 * (people-search.ts): 1 an exact username, e-mail, student or employee id (or whole tax id);
 * 2 a name that begins with the typed words; 3 a name that begins with them with its first two
 * words swapped; 4 any other person every word is found in.
 */
export interface Typed {
  /** The whole text, trimmed and lower-cased: what rank 1 compares with the ids. */
  whole: string;
  /** Lower-cased words, at most eight. */
  words: string[];
  /** The words joined by single spaces: what ranks 2 and 3 look for at the start of the name. */
  prefix: string;
  /** The text is a whole ten-digit tax id (RNOKPP): only then does it find its holder. */
  taxId: boolean;
}

/** A tax id (RNOKPP) is found only when typed whole: no one can list people by a part of it. */
const taxIdPattern = /^\d{10}$/;

/** Words this short have no trigram, so they are looked for at the start of a word (see matches). */
const shortWord = 3;

export function readTyped(query: string | undefined): Typed | null {
  const whole = (query ?? "").trim().toLowerCase();
  const words = whole.split(/\s+/).filter(Boolean).slice(0, 8);
  if (words.length === 0) return null;
  return { whole, words, prefix: words.join(" "), taxId: taxIdPattern.test(whole) };
}

// The same expression as the trigram index of migration 0180, so the planner uses it.
const searchable = sql<string>`lower(users.full_name || ' ' || users.username || ' ' || coalesce(users.email, '') || ' ' || coalesce(users.student_id, '') || ' ' || coalesce(users.employee_id, ''))`;

const likeEscaped = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);
// In a PostgreSQL regular expression a backslash makes any other character than a letter or digit literal.
const regexEscaped = (word: string) => word.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`);

const all = (conditions: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;

/**
 * Every word is found. A word of three letters or more anywhere (the trigram index finds it);
 * when every word is shorter, each at the start of a word of the name or at the start of the
 * username, e-mail or an id: one or two letters found anywhere match most of the university and
 * have no trigram, so that search read the whole table (100 ms at 100,000 people), while pg_trgm
 * indexes a word's first letters padded with spaces, which "(^| )ол" uses. `indexed: false`
 * writes the same test so that the trigram index cannot serve it: for walking the name index.
 */
export function matches(typed: Typed, { indexed }: { indexed: boolean }): RawBuilder<SqlBool> {
  const text = indexed ? searchable : sql<string>`(${searchable} || '')`;
  const anywhere = typed.words.some((word) => word.length >= shortWord);
  const words = all(
    typed.words.map((word) =>
      anywhere
        ? sql<SqlBool>`${text} like ${`%${likeEscaped(word)}%`}`
        : sql<SqlBool>`${text} ~ ${`(^| )${regexEscaped(word)}`}`,
    ),
  );
  return typed.taxId ? sql<SqlBool>`(users.tax_id = ${typed.whole} or ${words})` : words;
}

/** Rank 1, each test through its own index. */
export function exact(typed: Typed): RawBuilder<SqlBool> {
  const ids = [
    sql<SqlBool>`lower(users.username) = ${typed.whole}`,
    sql<SqlBool>`lower(users.email) = ${typed.whole}`,
    sql<SqlBool>`lower(users.student_id) = ${typed.whole}`,
    sql<SqlBool>`lower(users.employee_id) = ${typed.whole}`,
    ...(typed.taxId ? [sql<SqlBool>`users.tax_id = ${typed.whole}`] : []),
  ];
  return sql<SqlBool>`(${sql.join(ids, sql` or `)})`;
}

/** Not rank 1: `is not true`, since a missing e-mail or id makes the test null rather than false. */
export const notExact = (typed: Typed) => sql<SqlBool>`${exact(typed)} is not true`;

/** The list's order: the Ukrainian alphabet, as the index users_name_order_idx keeps it (migration 0181). */
export const nameOrder = sql<string>`kpi_name_order(users.full_name) collate "C"`;
/** Rank 3's order, kept by users_name_swapped_order_idx (migration 0421): the name as it was typed. */
export const swappedOrder = sql<string>`kpi_name_order(kpi_name_swapped(users.full_name)) collate "C"`;

/**
 * The key begins with the typed words, written as a range of the key's index rather than a LIKE:
 * a range of a parameter stays an index range in the generic plan of a prepared statement, and
 * needs no escaping. The last code point (U+10FFFF) sorts after every character that can follow.
 */
function startsWith(key: RawBuilder<string>, typed: Typed): RawBuilder<SqlBool> {
  const from = sql<string>`kpi_name_order(${typed.prefix}::text) collate "C"`;
  const to = sql<string>`(kpi_name_order(${typed.prefix}::text) || chr(1114111)) collate "C"`;
  return sql<SqlBool>`(${key} >= ${from} and ${key} < ${to})`;
}

/** Rank 2: the name as stored begins with the typed words ("Петренко Ол" → "Петренко Олена"). */
export const nameBegins = (typed: Typed) => startsWith(nameOrder, typed);
/** Rank 3: the name with its first two words swapped begins with them ("Олена Пет" → "Петренко Олена"). */
export const swappedBegins = (typed: Typed) => startsWith(swappedOrder, typed);

/**
 * Not rank 2, and not rank 3, tested on the row at hand (the ranks after them exclude them). Not
 * as the ranges above: read through their indexes, "not this range" became two range scans of most
 * of the table; and comparing lower-case text skips kpi_name_order's translate (3.6 µs a name).
 */
const typedPrefix = (typed: Typed) => sql<string>`lower(${typed.prefix}::text)`;
export const notNameBegins = (typed: Typed) =>
  sql<SqlBool>`not starts_with(lower(users.full_name), ${typedPrefix(typed)})`;
export const notSwappedBegins = (typed: Typed) =>
  sql<SqlBool>`not starts_with(kpi_name_swapped(users.full_name), ${typedPrefix(typed)})`;
