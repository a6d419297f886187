import type { LdapBindRefusal } from "@kpi-id/contracts";
import { sql } from "kysely";
import { type AuditEvent, auditedStatement, auditRow } from "../../platform/audit/record.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { hashToken, sameBytes } from "../../platform/crypto/tokens.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import {
  isOwnKey,
  settleSuccess,
  type ThrottleKey,
  takeAttempt,
  withFailureConfirmed,
  withSuccessSettled,
} from "../../platform/throttle/throttle.ts";
import { hasApplicationAccess } from "../admission/applications.ts";
import { findApplicationById } from "../apps/queries.ts";
import { holdsSecondFactor } from "../sessions/recent-sign-in.ts";
import { rolesOf } from "../users/operator-roles.ts";
import { type BindClient, lookUpPersonBind } from "./bind-lookup.ts";
import { findLdapClientSecret } from "./clients.ts";
import { applicationPasswordHashes, storedApplicationPassword } from "./passwords.ts";
import { ldapThrottleKeys } from "./throttle.ts";
import type { AcceptedBind } from "./uses.ts";

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
  /**
   * An accepted bind with an application password, recorded (audit row and use) after slapd has its answer, with
   * others in one commit (uses.ts: createAcceptedBindQueue); a promise to wait on when its queue is full.
   */
  recordAccepted: (bind: AcceptedBind) => Promise<void> | undefined;
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
 * records it. A person's bind with an application password is decided by one read (bind-lookup.ts) and answered
 * at once, its record written after with others (uses.ts); every refusal is recorded, with the throttle's count
 * of it, before slapd hears the answer.
 */
export async function decideBind(context: LdapBindContext, facts: BindFacts): Promise<LdapBindDecision> {
  const name = parseBindDn(facts.dn, context.baseDn);
  if (!name) return recorded(context, facts, refused("not_ours"));
  if (facts.ssf < requiredSsf) return recorded(context, facts, refused("no_tls"));
  return name.kind === "person" ? personBind(context, facts, name.username) : clientBind(context, facts, name.name);
}

/**
 * Writes the bind's audit row; with `keys`, the throttle's count settled (accepted) or the failure noted (refused
 * after the attempt was counted). Its commit waits for the disk, before slapd hears the answer: a refused one
 * carries to the disk with it the attempt counted just before without waiting (the WAL is written in order), so
 * a restarted database never forgets a guess that was answered, and never hands a guesser fresh attempts.
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
 * A refusal after the lookup: the failure counted on the name and the address (or the known client), then
 * recorded. Refused as throttled instead when a key started waiting since the lookup (a concurrent failure).
 */
async function counted(context: LdapBindContext, facts: BindFacts, decision: LdapBindDecision, keys: ThrottleKey[]) {
  const attempt = await takeAttempt(context.db, keys, context.now);
  if (!attempt.allowed) return recorded(context, facts, refused("throttled", { userId: decision.userId }));
  return recorded(context, facts, decision, keys);
}

/**
 * A person's bind. Everything is read in one statement (the same for an unknown name), before any of it decides,
 * so an unknown name, a disabled person and a wrong password take the same path and answer alike (49).
 *
 * An application password is about 99 random bits (passwords.ts): an online guesser needs some 2^98 tries, so the
 * throttle does not stand between it and the password, and its attempt is not counted in advance as a sign-in's
 * is (throttle.ts: takeAttempt). The throttle is still asked (a waiting name or address refuses even the right
 * password), every refusal is counted on the name and the address before it is answered, and an accepted bind
 * clears the name's or the known client's failures (a sign-in's rule). Concurrent guesses may each be checked
 * before the first one's failure is counted: harmless against 99 bits. The KPI ID password, which a person
 * chose, is the one secret a guesser could find: through a client that allows it, the attempt is counted before
 * argon2 runs, as a sign-in's, and its outcome recorded before the answer.
 */
async function personBind(context: LdapBindContext, facts: BindFacts, username: string): Promise<LdapBindDecision> {
  const { db, now } = context;
  const hashes = applicationPasswordHashes(context.ring, facts.password);
  const found = await lookUpPersonBind(db, {
    username,
    peer: facts.peer,
    hashes,
    throttleSecret: context.throttleSecret,
    now,
  });
  const { keys, attempt } = found;
  if (!attempt.allowed) return recorded(context, facts, refused("throttled", { userId: found.person?.id }));
  if (!found.password && found.client?.kpiPasswordAllowed) {
    const taken = await takeAttempt(db, keys, now);
    if (!taken.allowed) return recorded(context, facts, refused("throttled", { userId: found.person?.id }));
    const decision = await personOutcome(context, facts, found.person, found.client, undefined, hashes);
    return recorded(context, facts, decision, keys);
  }
  const decision = await personOutcome(context, facts, found.person, found.client, found.password, hashes);
  if (!decision.accepted || !decision.passwordId) return counted(context, facts, decision, keys);
  // Only after failures (rare): the name's or known client's counter starts again from zero, as a sign-in's does.
  if (found.ownCounted)
    await settleSuccess(
      db,
      keys.filter((key) => isOwnKey(key.key)),
    );
  await context.recordAccepted({
    audit: auditRow(ldapBindAuditEvent(decision, facts, now)),
    use: {
      passwordId: decision.passwordId,
      userId: decision.userId ?? "",
      clientId: found.client?.id ?? null,
      peer: facts.peer ?? null,
      now,
    },
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
  // Through a client that allows the KPI ID password, argon2 runs for every bind that is not an application
  // password's (an unknown name too), so the answer's time does not tell who exists or who may use it.
  const accountPassword =
    client?.kpiPasswordAllowed && !password
      ? context.verifyAccountPassword?.(person?.password_hash ?? null, facts.password)
      : undefined;
  // A refusal waits for argon2 too: it takes as long whatever refused it.
  const refuse = async (refusal: LdapRefusal, ids: BindIds) => {
    await accountPassword;
    return refused(refusal, ids);
  };
  if (!person) return refuse("unknown_person", through);
  const ids = { userId: person.id, ...through };
  if (person.status !== "active" || person.anonymised_at !== null) return refuse("person_disabled", ids);
  if (client?.applicationId && !(await hasApplicationAccess(db, person.id, client.applicationId))) {
    return refuse("no_access", ids);
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
