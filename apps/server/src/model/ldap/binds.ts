import type { LdapBindRefusal } from "@kpi-id/contracts";
import { sql } from "kysely";
import { type AuditEvent, auditedStatement, auditRow } from "../../platform/audit/record.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { hashToken, sameBytes } from "../../platform/crypto/tokens.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import {
  type ThrottleKey,
  takeAttempt,
  withFailureConfirmed,
  withSuccessSettled,
} from "../../platform/throttle/throttle.ts";
import { hasApplicationAccess } from "../admission/applications.ts";
import { findApplicationById } from "../apps/queries.ts";
import { holdsSecondFactor } from "../sessions/recent-sign-in.ts";
import { rolesOf } from "../users/operator-roles.ts";
import { networkPasswordHashes } from "../wifi/secrets.ts";
import { type BindClient, lookUpPersonBind } from "./bind-lookup.ts";
import { findLdapClientSecret } from "./clients.ts";
import { storedApplicationPassword } from "./passwords.ts";
import { ldapThrottleKeys } from "./throttle.ts";
import type { PasswordUse } from "./uses.ts";

/** Why a bind was refused: the console counts failures by these, the audit row keeps them (contracts list them). */
export type LdapRefusal = LdapBindRefusal;

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
  /** The KPI ID password's check (argon2id), for clients that allow it; without it no client's allowance works. */
  verifyAccountPassword?: (passwordHash: string | null, password: string) => Promise<boolean>;
  /** An accepted bind's use of an application password, noted once the bind is recorded (uses.ts: createUseQueue). */
  noteUse: (use: PasswordUse) => void;
}

/** Who bound and through what; applicationId: the application of the client it came through, if tied to one. */
interface BindIds {
  userId?: string;
  clientId?: string;
  applicationId?: string;
}

export type LdapBindDecision =
  | ({ accepted: true; as: "person" | "client"; passwordId?: string; with?: "kpi_password" } & BindIds)
  | ({ accepted: false; refusal: LdapRefusal } & BindIds);

/** Below this strength a simple bind is refused even if slapd let it through (slapd.conf: simple_bind=128). */
const requiredSsf = 128;

const refused = (refusal: LdapRefusal, ids: BindIds = {}): LdapBindDecision => ({
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

/**
 * Decides one simple bind, a person with an application password or a registered client's service account, and
 * records it: its audit row and the throttle's count settled or the failure noted, in one statement that waits for
 * the disk before slapd hears the answer. A person's bind costs two round trips (its reads with the throttle's
 * attempt, that record), whatever the outcome; an application password's use is noted for a later batch
 * (uses.ts), off the bind's path.
 */
export async function decideBind(context: LdapBindContext, facts: BindFacts): Promise<LdapBindDecision> {
  const name = parseBindDn(facts.dn, context.baseDn);
  if (!name) return recorded(context, facts, refused("not_ours"));
  if (facts.ssf < requiredSsf) return recorded(context, facts, refused("no_tls"));
  return name.kind === "person" ? personBind(context, facts, name.username) : clientBind(context, facts, name.name);
}

/**
 * Writes the bind's audit row; with `keys`, the throttle's count settled (accepted) or the failure noted (refused
 * after the attempt was counted). Its commit waits for the disk whatever the outcome, before slapd hears the answer.
 * Not waiting for an accepted bind measured p50 2.3–2.9 ms a bind instead of 5.6–8.3 (bench/ldap.bench.ts, shared
 * test machine) and is not taken:
 * - an accepted bind lets the person into the client (a lab machine's login, Nextcloud): a PostgreSQL crash must not
 *   make the audit log forget a bind a client acted on, as no application learns of a sign-in the log could still
 *   forget (db/commit.ts; a server-side sign-in is durable for the same reason);
 * - a refused one carries to the disk with it the attempt the lookup counted without waiting (the WAL is written in
 *   order): a restarted database never forgets a guess that was answered, so never hands a guesser fresh attempts.
 * The password's use, which only informs, follows in batches (uses.ts).
 */
async function recorded(
  context: LdapBindContext,
  facts: BindFacts,
  decision: LdapBindDecision,
  keys?: ThrottleKey[],
): Promise<LdapBindDecision> {
  const { db, now } = context;
  let query = auditedStatement(db, auditRow(ldapBindAuditEvent(decision, facts, now)), { waitForDisk: true });
  if (keys) query = decision.accepted ? withSuccessSettled(query, keys) : withFailureConfirmed(query, keys, now);
  await query.selectNoFrom(sql<number>`1`.as("recorded")).execute();
  return decision;
}

/**
 * A person's bind. Everything is read in the statement that counts the attempt (the same for an unknown name),
 * before any of it decides, so an unknown name, a disabled person and a wrong password take the same path
 * and answer alike (49); an accepted bind settles the count as a sign-in does.
 */
async function personBind(context: LdapBindContext, facts: BindFacts, username: string): Promise<LdapBindDecision> {
  const { db, now } = context;
  const hashes = networkPasswordHashes(context.ring, facts.password);
  const found = await lookUpPersonBind(db, {
    username,
    peer: facts.peer,
    hashes,
    throttleSecret: context.throttleSecret,
    now,
  });
  const { keys, attempt } = found;
  if (!attempt.allowed) return recorded(context, facts, refused("throttled", { userId: found.person?.id }));
  const decision = await personOutcome(context, facts, found.person, found.client, found.password, hashes);
  if (!decision.accepted || !decision.passwordId) return recorded(context, facts, decision, keys);
  await recorded(context, facts, decision, keys);
  // Noted only once the bind is recorded: a use is never written for a bind whose audit row failed.
  context.noteUse({
    passwordId: decision.passwordId,
    userId: found.person?.id ?? "",
    clientId: found.client?.id ?? null,
    peer: facts.peer ?? null,
    now,
  });
  return decision;
}

async function personOutcome(
  context: LdapBindContext,
  facts: BindFacts,
  person: User | undefined,
  client: BindClient | undefined,
  password: { id: string; secretHash: string } | undefined,
  hashes: string[],
): Promise<LdapBindDecision> {
  const { db, ring } = context;
  const through = { clientId: client?.id, applicationId: client?.applicationId ?? undefined };
  // Through a client that allows the KPI ID password, argon2 runs for every bind (an unknown name too), so the
  // answer's time does not tell who exists or who may use it.
  const accountPassword = client?.kpiPasswordAllowed
    ? context.verifyAccountPassword?.(person?.password_hash ?? null, facts.password)
    : undefined;
  if (!person) {
    await accountPassword;
    return refused("unknown_person", through);
  }
  const ids = { userId: person.id, ...through };
  if (person.status !== "active" || person.anonymised_at !== null) return refused("person_disabled", ids);
  if (client?.applicationId && !(await hasApplicationAccess(db, person.id, client.applicationId))) {
    return refused("no_access", ids);
  }
  if (!password) {
    if (!(await accountPassword)) return refused("wrong_password", ids);
    if (!(await kpiPasswordMayBind(db, person, client))) return refused("kpi_password_refused", ids);
    return { accepted: true, as: "person", with: "kpi_password", ...ids };
  }
  // Kept under an older key of the ring: made again under the newest while the password is at hand.
  if (password.secretHash !== hashes[0]) {
    await db
      .updateTable("ldap_passwords")
      .set({ secret_hash: storedApplicationPassword(ring, facts.password) })
      .where("id", "=", password.id)
      .execute();
  }
  return { accepted: true, as: "person", passwordId: password.id, ...ids };
}

/**
 * Whether the KPI ID password may bind through a client that allows it: never for a person whose password guards
 * more than a lab login (a console role), nor one whose sign-in asks a second factor (one they hold, one an
 * operator requires of them, or one the client's application requires), since an LDAP bind cannot carry it.
 */
async function kpiPasswordMayBind(db: Db, person: User, client: BindClient | undefined): Promise<boolean> {
  if (!client?.kpiPasswordAllowed || person.require_mfa) return false;
  if ((await rolesOf(db, person.id)).length > 0 || (await holdsSecondFactor(db, person.id))) return false;
  const application = client.applicationId ? await findApplicationById(db, client.applicationId) : undefined;
  return !application?.require_mfa;
}

/** A registered client's service account: its secret against the stored SHA-256, counted like a person's. */
async function clientBind(context: LdapBindContext, facts: BindFacts, name: string): Promise<LdapBindDecision> {
  const { db, now } = context;
  const client = await findLdapClientSecret(db, name);
  const keys = ldapThrottleKeys(context.throttleSecret, { name: `client:${name}`, peer: facts.peer });
  const attempt = await takeAttempt(db, keys, now);
  if (!attempt.allowed) return recorded(context, facts, refused("throttled"));
  const presented = hashToken(facts.password);
  if (!client || !sameBytes(Buffer.from(client.secret_hash, "hex"), presented)) {
    return recorded(
      context,
      facts,
      refused(client ? "wrong_secret" : "unknown_client", { clientId: client?.id }),
      keys,
    );
  }
  return recorded(context, facts, { accepted: true, as: "client", clientId: client.id }, keys);
}

/** The audit row of a bind: the reason word and where from, never the DN typed or a secret. */
export function ldapBindAuditEvent(decision: LdapBindDecision, facts: BindFacts, now: Date): AuditEvent {
  return {
    type: "ldap_bind",
    result: decision.accepted ? "success" : "failure",
    userId: decision.userId ?? null,
    // The application of the client the bind came through: its integration health counts the bind.
    applicationId: decision.applicationId ?? null,
    reason: decision.accepted ? undefined : decision.refusal,
    occurredAt: now,
    ip: facts.peer,
    details: {
      clientId: decision.clientId ?? null,
      as: decision.accepted ? decision.as : null,
      ...(decision.accepted && decision.with ? { with: decision.with } : {}),
    },
  };
}
