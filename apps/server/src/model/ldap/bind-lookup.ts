import { sql } from "kysely";
import type { Db, User } from "../../platform/db/schema.ts";
import {
  type AttemptDecision,
  attemptDecision,
  isOwnKey,
  type ThrottleKey,
  throttleHasFailures,
  throttleWaitOf,
} from "../../platform/throttle/throttle.ts";
import { userByUsernameQuery } from "../users/queries.ts";
import type { LdapClient } from "./clients.ts";
import { ldapThrottleKeys } from "./throttle.ts";

/** What a person's bind needs of the client it comes through. */
export type BindClient = Pick<LdapClient, "id" | "applicationId" | "kpiPasswordAllowed">;

/** Everything a person's bind reads, found in one round trip (bench/ldap.bench.ts: each one costs the bind's rate). */
export interface PersonBindLookup {
  person: User | undefined;
  /** The person bound from this address before: a known client machine, counted by itself (throttle.ts). */
  knownPeer: boolean;
  /** The registered client whose addresses include the peer: the bind comes through it. */
  client: BindClient | undefined;
  /** The person's application password matching one of `hashes`, usable through that client (or any client). */
  password: { id: string; secretHash: string } | undefined;
  /** The throttle's keys for this bind (a known client's alone, else the name's and the address's)… */
  keys: ThrottleKey[];
  /** …whether any of them waits now (read, nothing counted: binds.ts counts a refused bind's failure)… */
  attempt: AttemptDecision;
  /** …and whether the name's or the known client's counter holds failures, which an accepted bind clears. */
  ownCounted: boolean;
}

interface LookupRow extends Partial<User> {
  ldap_known_peer: boolean;
  ldap_client_id: string | null;
  ldap_client_application_id: string | null;
  ldap_client_kpi_password_allowed: boolean | null;
  ldap_password_id: string | null;
  ldap_password_hash: string | null;
  ldap_throttle_wait: number | null;
  ldap_own_counted: boolean | null;
}

/**
 * The person by username, whether they bound from `peer` before, the client at `peer` (the first by name when
 * several share an address, as ldapClientAt), the application password matching `hashes`, and the throttle's
 * state on the keys the known client chooses: one statement, the same for an unknown name as for a known one, so
 * neither the round trips nor their number tell who exists. It only reads (no commit to wait for, no row lock):
 * an accepted bind is decided by this one round trip (binds.ts says why the attempt is not counted in advance).
 */
export async function lookUpPersonBind(
  db: Db,
  bind: { username: string; peer: string | undefined; hashes: string[]; throttleSecret: string; now: Date },
): Promise<PersonBindLookup> {
  const peer = bind.peer ?? null;
  const throttled = { name: bind.username, peer: bind.peer };
  const knownKeys = ldapThrottleKeys(bind.throttleSecret, { ...throttled, knownPeer: true });
  const otherKeys = ldapThrottleKeys(bind.throttleSecret, throttled);
  const all = (keys: ThrottleKey[]) => keys.map((k) => k.key);
  const own = (keys: ThrottleKey[]) => keys.filter((k) => isOwnKey(k.key)).map((k) => k.key);
  // Both sets as arrays, one chosen in the statement by whether the peer is known.
  const chosen = (pick: (keys: ThrottleKey[]) => string[]) =>
    sql<string[]>`case when known.peer then ${pick(knownKeys)}::text[] else ${pick(otherKeys)}::text[] end`;
  const { rows } = await sql<LookupRow>`select person.*,
      known.peer as ldap_known_peer,
      ${throttleWaitOf(chosen(all), bind.now)} as ldap_throttle_wait,
      ${throttleHasFailures(chosen(own))} as ldap_own_counted,
      client.id as ldap_client_id,
      client.application_id as ldap_client_application_id,
      client.kpi_password_allowed as ldap_client_kpi_password_allowed,
      password.id as ldap_password_id,
      password.secret_hash as ldap_password_hash
    from (select 1) as one
    left join (${userByUsernameQuery(db, bind.username)}) as person on true
    left join lateral (
      select exists (select 1 from ldap_uses where ldap_uses.user_id = person.id and ldap_uses.peer = ${peer}::text)
        as peer
    ) as known on true
    left join lateral (
      select id, application_id, kpi_password_allowed from ldap_clients
      where ${peer}::text = any(addresses) order by name limit 1
    ) as client on true
    left join lateral (
      select id, secret_hash from ldap_passwords
      where ldap_passwords.user_id = person.id and secret_hash = any(${bind.hashes}::text[])
        and (client_id is null or client_id = client.id)
      limit 1
    ) as password on true`.execute(db);
  const {
    ldap_known_peer: knownPeer,
    ldap_client_id: clientId,
    ldap_client_application_id: applicationId,
    ldap_client_kpi_password_allowed: kpiPasswordAllowed,
    ldap_password_id: passwordId,
    ldap_password_hash: secretHash,
    ldap_throttle_wait: wait,
    ldap_own_counted: ownCounted,
    ...person
  } = rows[0] ?? ({ ldap_known_peer: false } as LookupRow);
  return {
    person: person.id ? (person as User) : undefined,
    knownPeer: knownPeer === true,
    client: clientId ? { id: clientId, applicationId, kpiPasswordAllowed: kpiPasswordAllowed === true } : undefined,
    password: passwordId && secretHash ? { id: passwordId, secretHash } : undefined,
    keys: knownPeer === true ? knownKeys : otherKeys,
    attempt: attemptDecision(wait),
    ownCounted: ownCounted === true,
  };
}
