import type { AuditEvent } from "../../platform/audit/record.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { hashToken, sameBytes } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { confirmFailure, settleSuccess, takeAttempt } from "../../platform/throttle/throttle.ts";
import { hasApplicationAccess } from "../access/applications.ts";
import { findUserByUsername } from "../users/queries.ts";
import { networkPasswordHashes } from "../wifi/secrets.ts";
import { findLdapClientSecret, type LdapClient, ldapClientAt } from "./clients.ts";
import { storedApplicationPassword } from "./passwords.ts";
import { ldapThrottleKeys } from "./throttle.ts";
import { recordApplicationPasswordUse } from "./uses.ts";

/** Why a bind was refused: the console counts failures by these, the audit row keeps them. */
export type LdapRefusal =
  | "not_ours"
  | "no_tls"
  | "unknown_person"
  | "person_disabled"
  | "no_access"
  | "wrong_password"
  | "throttled"
  | "unknown_client"
  | "wrong_secret";

/** What slapd tells the responder about one simple bind (its sock overlay's BIND request). */
export interface BindFacts {
  dn: string;
  password: string;
  /** The client's address, from `peername: IP=<address>:<port>`. */
  peer?: string;
  /** The connection's security strength factor: 0 without TLS. */
  ssf: number;
}

export interface LdapBindContext {
  db: Db;
  ring: SecretRing;
  /** ldapThrottleKey(SAML_PAIRWISE_SALT). */
  throttleSecret: string;
  baseDn: string;
  now: Date;
}

export type LdapBindDecision =
  | { accepted: true; as: "person" | "client"; userId?: string; clientId?: string; passwordId?: string }
  | { accepted: false; refusal: LdapRefusal; userId?: string; clientId?: string };

/** Below this strength a simple bind is refused even if slapd let it through (slapd.conf: simple_bind=128). */
const requiredSsf = 128;

const refused = (refusal: LdapRefusal, ids: { userId?: string; clientId?: string } = {}): LdapBindDecision => ({
  accepted: false,
  refusal,
  ...ids,
});

type BoundName = { kind: "person"; username: string } | { kind: "client"; name: string };

/** uid=<username>,ou=people,<base> or cn=<client>,ou=clients,<base>; anything else (escapes too) is not ours. */
export function parseBindDn(dn: string, baseDn: string): BoundName | undefined {
  const match = /^(uid|cn)=([\p{L}\p{N}._@-]{1,128}),ou=(people|clients),(.+)$/iu.exec(dn.trim());
  if (!match || match[4]?.replace(/\s+/g, "").toLowerCase() !== baseDn) return undefined;
  const [, attribute = "", value = "", ou = ""] = match;
  if (attribute.toLowerCase() === "uid" && ou.toLowerCase() === "people") return { kind: "person", username: value };
  if (attribute.toLowerCase() === "cn" && ou.toLowerCase() === "clients") return { kind: "client", name: value };
  return undefined;
}

/** Decides one simple bind: a person with an application password, or a registered client's service account. */
export async function decideBind(context: LdapBindContext, facts: BindFacts): Promise<LdapBindDecision> {
  const name = parseBindDn(facts.dn, context.baseDn);
  if (!name) return refused("not_ours");
  if (facts.ssf < requiredSsf) return refused("no_tls");
  return name.kind === "person" ? personBind(context, facts, name.username) : clientBind(context, facts, name.name);
}

/**
 * A person's bind. Counted before anything is looked at, so an unknown name, a disabled person and a wrong
 * password take the same path and answer alike (49); an accepted bind settles the count as a sign-in does.
 */
async function personBind(context: LdapBindContext, facts: BindFacts, username: string): Promise<LdapBindDecision> {
  const { db, now } = context;
  const person = await findUserByUsername(db, username);
  const keys = await ldapThrottleKeys(db, context.throttleSecret, {
    name: username,
    userId: person?.id,
    peer: facts.peer,
  });
  const attempt = await takeAttempt(db, keys, now);
  if (!attempt.allowed) return refused("throttled", { userId: person?.id });
  const client = await ldapClientAt(db, facts.peer);
  const decision = await personOutcome(context, facts, person, client);
  if (!decision.accepted) {
    await confirmFailure(db, keys, now);
    return decision;
  }
  await settleSuccess(db, keys);
  return decision;
}

async function personOutcome(
  context: LdapBindContext,
  facts: BindFacts,
  person: Awaited<ReturnType<typeof findUserByUsername>>,
  client: LdapClient | undefined,
): Promise<LdapBindDecision> {
  const { db, ring, now } = context;
  if (!person) return refused("unknown_person", { clientId: client?.id });
  const ids = { userId: person.id, clientId: client?.id };
  if (person.status !== "active" || person.anonymised_at !== null) return refused("person_disabled", ids);
  if (client?.applicationId && !(await hasApplicationAccess(db, person.id, client.applicationId))) {
    return refused("no_access", ids);
  }
  const hashes = networkPasswordHashes(ring, facts.password);
  const row = await db
    .selectFrom("ldap_passwords")
    .select(["id", "secret_hash"])
    .where("user_id", "=", person.id)
    .where("secret_hash", "in", hashes)
    .where((eb) => eb.or([eb("client_id", "is", null), eb("client_id", "=", client?.id ?? null)]))
    .executeTakeFirst();
  if (!row) return refused("wrong_password", ids);
  // Kept under an older key of the ring: made again under the newest while the password is at hand.
  if (row.secret_hash !== hashes[0]) {
    await db
      .updateTable("ldap_passwords")
      .set({ secret_hash: storedApplicationPassword(ring, facts.password) })
      .where("id", "=", row.id)
      .execute();
  }
  await recordApplicationPasswordUse(db, {
    passwordId: row.id,
    userId: person.id,
    clientId: client?.id ?? null,
    peer: facts.peer ?? null,
    now,
  });
  return { accepted: true, as: "person", userId: person.id, clientId: client?.id, passwordId: row.id };
}

/** A registered client's service account: its secret against the stored SHA-256, counted like a person's. */
async function clientBind(context: LdapBindContext, facts: BindFacts, name: string): Promise<LdapBindDecision> {
  const { db, now } = context;
  const keys = await ldapThrottleKeys(db, context.throttleSecret, { name: `client:${name}`, peer: facts.peer });
  const attempt = await takeAttempt(db, keys, now);
  if (!attempt.allowed) return refused("throttled");
  const client = await findLdapClientSecret(db, name);
  const presented = hashToken(facts.password);
  if (!client || !sameBytes(Buffer.from(client.secret_hash, "hex"), presented)) {
    await confirmFailure(db, keys, now);
    return refused(client ? "wrong_secret" : "unknown_client", { clientId: client?.id });
  }
  await settleSuccess(db, keys);
  return { accepted: true, as: "client", clientId: client.id };
}

/** The audit row of a bind: the reason word and where from, never the DN typed or a secret. */
export function ldapBindAuditEvent(decision: LdapBindDecision, facts: BindFacts, now: Date): AuditEvent {
  return {
    type: "ldap_bind",
    result: decision.accepted ? "success" : "failure",
    userId: decision.userId ?? null,
    reason: decision.accepted ? undefined : decision.refusal,
    occurredAt: now,
    ip: facts.peer,
    details: { clientId: decision.clientId ?? null, as: decision.accepted ? decision.as : null },
  };
}
