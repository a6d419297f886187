import type { LdapBindRefusal } from "@kpi-id/contracts";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { hashToken, sameBytes } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { confirmFailure, settleSuccess, takeAttempt } from "../../platform/throttle/throttle.ts";
import { hasApplicationAccess } from "../access/applications.ts";
import { findApplicationById } from "../apps/queries.ts";
import { holdsSecondFactor } from "../sessions/recent-sign-in.ts";
import { rolesOf } from "../users/operator-roles.ts";
import { findUserByUsername } from "../users/queries.ts";
import { networkPasswordHashes } from "../wifi/secrets.ts";
import { findLdapClientSecret, type LdapClient, ldapClientAt } from "./clients.ts";
import { storedApplicationPassword } from "./passwords.ts";
import { ldapThrottleKeys } from "./throttle.ts";
import { recordApplicationPasswordUse } from "./uses.ts";

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
  const hashes = networkPasswordHashes(ring, facts.password);
  const row = await db
    .selectFrom("ldap_passwords")
    .select(["id", "secret_hash"])
    .where("user_id", "=", person.id)
    .where("secret_hash", "in", hashes)
    .where((eb) => eb.or([eb("client_id", "is", null), eb("client_id", "=", client?.id ?? null)]))
    .executeTakeFirst();
  if (!row) {
    if (!(await accountPassword)) return refused("wrong_password", ids);
    if (!(await kpiPasswordMayBind(db, person, client))) return refused("kpi_password_refused", ids);
    return { accepted: true, as: "person", with: "kpi_password", ...ids };
  }
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
  return { accepted: true, as: "person", passwordId: row.id, ...ids };
}

/**
 * Whether the KPI ID password may bind through a client that allows it: never for a person whose password guards
 * more than a lab login (a console role), nor one whose sign-in asks a second factor (one they hold, one an
 * operator requires of them, or one the client's application requires), since an LDAP bind cannot carry it.
 */
async function kpiPasswordMayBind(
  db: Db,
  person: NonNullable<Awaited<ReturnType<typeof findUserByUsername>>>,
  client: LdapClient | undefined,
): Promise<boolean> {
  if (!client?.kpiPasswordAllowed || person.require_mfa) return false;
  if ((await rolesOf(db, person.id)).length > 0 || (await holdsSecondFactor(db, person.id))) return false;
  const application = client.applicationId ? await findApplicationById(db, client.applicationId) : undefined;
  return !application?.require_mfa;
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
