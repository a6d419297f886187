import { sql } from "kysely";
import { synchronousCommitOff } from "../../platform/db/commit.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import {
  type AttemptDecision,
  attemptDecision,
  type ThrottleKey,
  throttleTake,
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
  /** …and the attempt taken on them, before any of the above decides anything. */
  attempt: AttemptDecision;
}

interface LookupRow extends Partial<User> {
  ldap_known_peer: boolean;
  ldap_client_id: string | null;
  ldap_client_application_id: string | null;
  ldap_client_kpi_password_allowed: boolean | null;
  ldap_password_id: string | null;
  ldap_password_hash: string | null;
  ldap_throttle_wait: number | null;
  ldap_commit_without_waiting_for_disk: string | null;
}

/**
 * The person by username, whether they bound from `peer` before, the client at `peer` (the first by name when
 * several share an address, as ldapClientAt) and the application password matching `hashes`, with the throttle's
 * attempt taken on the keys the known client chooses: one statement, the same for an unknown name as for a known
 * one, so neither the round trips nor their number tell who exists. Its commit does not wait for the disk (the
 * throttle's counters are a speed bump: takeAttempt), so it runs outside any transaction.
 */
export async function lookUpPersonBind(
  db: Db,
  bind: { username: string; peer: string | undefined; hashes: string[]; throttleSecret: string; now: Date },
): Promise<PersonBindLookup> {
  if (db.isTransaction) throw new Error("lookUpPersonBind commits on its own; call it outside a transaction");
  const peer = bind.peer ?? null;
  const throttled = { name: bind.username, peer: bind.peer };
  const knownKeys = ldapThrottleKeys(bind.throttleSecret, { ...throttled, knownPeer: true });
  const otherKeys = ldapThrottleKeys(bind.throttleSecret, throttled);
  const { rows } = await sql<LookupRow>`select person.*,
      known.peer as ldap_known_peer,
      ${synchronousCommitOff} as ldap_commit_without_waiting_for_disk,
      case when known.peer then ${throttleTake(knownKeys, bind.now)} else ${throttleTake(otherKeys, bind.now)} end
        as ldap_throttle_wait,
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
    ldap_commit_without_waiting_for_disk: _commitSetting,
    ...person
  } = rows[0] ?? ({ ldap_known_peer: false } as LookupRow);
  return {
    person: person.id ? (person as User) : undefined,
    knownPeer: knownPeer === true,
    client: clientId ? { id: clientId, applicationId, kpiPasswordAllowed: kpiPasswordAllowed === true } : undefined,
    password: passwordId && secretHash ? { id: passwordId, secretHash } : undefined,
    keys: knownPeer === true ? knownKeys : otherKeys,
    attempt: attemptDecision(wait),
  };
}
