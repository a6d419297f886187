import { createHmac } from "node:crypto";
import { type QueryCreator, type RawBuilder, sql } from "kysely";
import type { Database, Db } from "../db/schema.ts";
import { type ThrottleRule, throttlePolicy } from "./policy.ts";

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/** Who is trying: the typed username, the client's address (as throttling counts it) and the browser's device nonce. */
export interface CredentialAttempt {
  username: string;
  address: string;
  /** The nonce of the browser's device cookie for this account, when it signed in to the account before. */
  device?: string;
}

const keyOf = (secret: string, kind: string, value: string) =>
  createHmac("sha256", secret).update(`${kind}\0${value}`, "utf8").digest("base64url");

/**
 * Counter keys for one credential check. The account part is an HMAC of the
 * lower-cased username, so the table and any log of it never hold a typed
 * username (people type passwords into the username field), and unknown
 * usernames get counters exactly like real ones. A browser that signed in to
 * the account before is counted by itself alone (OWASP "device cookies"): a
 * stranger's guesses lock the account for unknown browsers, never for the owner's.
 */
export function credentialThrottleKeys(secret: string, attempt: CredentialAttempt): ThrottleKey[] {
  if (attempt.device !== undefined) {
    return [{ key: `device:${keyOf(secret, "device", attempt.device)}`, rule: throttlePolicy.device }];
  }
  const account = createHmac("sha256", secret)
    .update(attempt.username.trim().toLowerCase(), "utf8")
    .digest("base64url");
  return [
    { key: `account:${account}`, rule: throttlePolicy.account },
    { key: `ip:${attempt.address}`, rule: throttlePolicy.ip },
  ];
}

/**
 * One person's wrong second-factor codes, counted apart from passwords with the account's rule (so the same lock):
 * a correct password does not give them back, only a correct code (the sign-in completed) does. Otherwise a
 * password and three wrong codes, repeated, would guess codes without end.
 */
export function secondFactorThrottleKey(secret: string, userId: string): ThrottleKey {
  return { key: `second-factor:${keyOf(secret, "second-factor", userId)}`, rule: throttlePolicy.account };
}

/**
 * The account's counters (passwords and second-factor codes), and the other protocols' counters of the person's name
 * (`alsoKeys`: model/housekeeping/unlock.ts names Wi-Fi's and LDAP's): `user unlock` and the console's unlock delete them.
 */
export async function unlockAccount(
  db: Db,
  secret: string,
  person: { id: string; username: string },
  alsoKeys: readonly string[] = [],
): Promise<boolean> {
  const [account] = credentialThrottleKeys(secret, { username: person.username, address: "" });
  const keys = [account?.key ?? "", secondFactorThrottleKey(secret, person.id).key, ...alsoKeys];
  const deleted = await db.deleteFrom("throttle_counters").where("key", "in", keys).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A list of numbers as a PostgreSQL array parameter (drivers differ on JS arrays of mixed types). */
const numbers = (values: (number | null)[]) => sql`${values}::double precision[]`;

/**
 * Takes one credential check against every key. Refused while a key waits;
 * otherwise the attempt is counted as a failure before the password is even
 * checked, under a row lock, so concurrent guesses are counted one after the
 * other and cannot all slip through before the first failure is written.
 * A success gives the attempt back (`settleSuccess`). One round trip: the
 * `throttle_take` function (migration 0300) holds the locks and the arithmetic,
 * with this file's rules passed in.
 */
export async function takeAttempt(db: Db, keys: ThrottleKey[], now: Date): Promise<AttemptDecision> {
  // The counters (of sign-ins, second-factor codes, recovery mails, Diia links) are a speed bump, not a record:
  // the statement's own commit does not wait for the disk (synchronous_commit off for its implicit transaction
  // alone). A PostgreSQL crash may forget the last fraction of a second of counts, never make the database
  // inconsistent; the grants, sessions and audit rows, in their own statements, still commit durably. Measured:
  // a commit that waits for the disk about 0.65 ms, one that does not 0.19 ms (docs/performance.md). Inside a
  // caller's transaction the setting would reach that transaction's other writes, so that is refused.
  if (db.isTransaction) throw new Error("takeAttempt commits on its own; call it outside a transaction");
  const { rows } = await sql<{ wait: number }>`select set_config('synchronous_commit', 'off', true), ${throttleTake(
    keys,
    now,
  )} as wait`.execute(db);
  return attemptDecision(rows[0]?.wait);
}

/** The `throttle_take` call of `takeAttempt`: the rules of each key passed in as arrays. */
function throttleTake(keys: ThrottleKey[], now: Date): RawBuilder<number> {
  const rules: ThrottleRule[] = keys.map((k) => k.rule);
  return sql<number>`throttle_take(
      ${keys.map((k) => k.key)}::text[],
      ${rules.map((rule) => rule.freeFailures)}::integer[],
      ${numbers(rules.map((rule) => rule.firstDelaySeconds))},
      ${numbers(rules.map((rule) => rule.maxDelaySeconds))},
      ${rules.map((rule) => rule.lock?.afterFailures ?? null)}::integer[],
      ${numbers(rules.map((rule) => rule.lock?.seconds ?? null))},
      ${numbers(rules.map((rule) => rule.forgetAfterSeconds))},
      ${rules.map((rule) => rule.forgetFrom === "firstFailure")}::boolean[],
      ${now}
    )`;
}

/**
 * For a statement that reads what a check needs without counting an attempt (model/ldap/bind-lookup.ts): the
 * seconds the longest wait among `keys` has left, null when none waits (`attemptDecision` reads it)…
 */
export function throttleWaitOf(keys: RawBuilder<string[]>, now: Date): RawBuilder<number | null> {
  return sql<number | null>`(select extract(epoch from max(blocked_until) - ${now}::timestamptz)::double precision
    from throttle_counters where key = any(${keys}) and blocked_until > ${now}::timestamptz)`;
}

/** …and whether any of `keys` holds failures (a success then has a counter to settle). */
export function throttleHasFailures(keys: RawBuilder<string[]>): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from throttle_counters where key = any(${keys}) and failures > 0)`;
}

/** What `throttle_take` answered (the seconds to wait, 0 to go on) as a decision. */
export function attemptDecision(wait: number | string | null | undefined): AttemptDecision {
  const seconds = Number(wait ?? 0);
  return seconds > 0 ? { allowed: false, retryAfterSeconds: seconds } : { allowed: true };
}

/** The check failed: the attempt counted in advance stays, and the failure's time is noted. */
export async function confirmFailure(db: Db, keys: ThrottleKey[], now: Date): Promise<void> {
  await db
    .updateTable("throttle_counters")
    .set({ last_failure_at: now })
    .where(
      "key",
      "in",
      keys.map((k) => k.key),
    )
    .execute();
}

/** `confirmFailure` as a data-modifying CTE on `query`: the statement recording the failure notes it too. */
export function withFailureConfirmed(query: QueryCreator<Database>, keys: ThrottleKey[], now: Date) {
  return query.with("throttle_failure_noted", (cte) =>
    cte
      .updateTable("throttle_counters")
      .set({ last_failure_at: now })
      .where(sql<boolean>`key = any(${keys.map((k) => k.key)}::text[])`),
  );
}

/**
 * Counters of one account or one browser: a success proves the guesser is not at work there. Wi-Fi's name and
 * known-device counters (model/wifi/throttle.ts) and LDAP's (model/ldap/throttle.ts: the name, and a client
 * machine the person bound from before) are the same kinds under their own prefixes; Wi-Fi's per-station counter
 * of unknown devices (`wifi-station:`, one device trying many names) and LDAP's per-address one (`ldap-peer:`) are
 * like an address and are not here.
 */
const ownKeyPrefixes = [
  "account:",
  "device:",
  "second-factor:",
  "wifi-name:",
  "wifi-device:",
  "ldap-name:",
  "ldap-known:",
] as const;
export const isOwnKey = (key: string) => ownKeyPrefixes.some((prefix) => key.startsWith(prefix));

/**
 * The check succeeded: the account (or the browser) starts again from zero, and the address
 * gets back the attempt counted in advance (but no more, so one known password
 * does not reset the allowance for guessing others). As data-modifying CTEs on `query`, so the
 * statement that records the success (a sign-in's grant and audit row) gives the attempt back in the
 * same round trip and commit.
 */
export function withSuccessSettled(query: QueryCreator<Database>, keys: ThrottleKey[]): QueryCreator<Database> {
  const ownKeys = keys.filter((k) => isOwnKey(k.key)).map((k) => k.key);
  const otherKeys = keys.filter((k) => !isOwnKey(k.key)).map((k) => k.key);
  // Arrays rather than `in (…)` lists: one statement text whichever list is empty.
  return query
    .with("throttle_cleared", (cte) =>
      cte.deleteFrom("throttle_counters").where(sql<boolean>`key = any(${ownKeys}::text[])`),
    )
    .with("throttle_given_back", (cte) =>
      cte
        .updateTable("throttle_counters")
        .set({ failures: sql<number>`greatest(failures - 1, 0)` })
        .where(sql<boolean>`key = any(${otherKeys}::text[])`),
    );
}

/** `withSuccessSettled` on its own, where nothing else is written with it. */
export async function settleSuccess(db: Db, keys: ThrottleKey[]): Promise<void> {
  await withSuccessSettled(db, keys).selectNoFrom(sql<number>`1`.as("settled")).execute();
}

/**
 * Whether any key waits now, without counting an attempt: for a check that runs in several steps (RADIUS's
 * EAP rounds) whose failure is counted once, at its end (`takeAttempt` then `confirmFailure`).
 */
export async function isWaiting(db: Db, keys: ThrottleKey[], now: Date): Promise<boolean> {
  if (keys.length === 0) return false;
  const row = await db
    .selectFrom("throttle_counters")
    .select("key")
    .where(
      "key",
      "in",
      keys.map((k) => k.key),
    )
    .where("blocked_until", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

/** A counter's failures and block, if it has any (the console's person screen shows the account's). */
export function throttleCounter(db: Db, key: ThrottleKey) {
  return db
    .selectFrom("throttle_counters")
    .select(["failures", "blocked_until"])
    .where("key", "=", key.key)
    .executeTakeFirst();
}
