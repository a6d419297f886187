import { sql } from "kysely";
import type { AuditEvent } from "../../platform/audit/record.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { unseal } from "../../platform/crypto/seal.ts";
import type { Db } from "../../platform/db/schema.ts";
import {
  confirmFailure,
  isWaiting,
  settleSuccess,
  type ThrottleKey,
  takeAttempt,
} from "../../platform/throttle/throttle.ts";
import {
  checkWifiPerson,
  parseWifiIdentity,
  type WifiIdentity,
  type WifiPersonCheck,
  type WifiRefusal,
} from "./people.ts";
import { networkPasswordHashes, ntHash, ntHashSealPurpose, stationHash, storedNetworkPassword } from "./secrets.ts";
import { wifiThrottleKeys } from "./throttle.ts";
import { keepLatestUses } from "./uses.ts";

/** What FreeRADIUS tells us about one authentication (the rest module's request list, already read). */
export interface RadiusFacts {
  /** The inner identity: username@realm or username+device@realm. */
  userName: string;
  /** User-Password (TTLS/PAP only). */
  password?: string;
  callingStation?: string;
  calledStation?: string;
  nasIdentifier?: string;
  /** KPI-ID-Network-Password: the password our earlier answer named (post-auth). */
  networkPasswordId?: string;
}

export interface WifiContext {
  db: Db;
  ring: SecretRing;
  /** wifiDeviceKey(SAML_PAIRWISE_SALT): devices' addresses and throttle counters, stable across rotations. */
  deviceKey: string;
  realm: string;
  now: Date;
}

export type WifiDecision =
  | { accepted: true; userId: string; passwordId: string; ntHash?: string; useId?: string }
  | { accepted: false; refusal: WifiRefusal; userId?: string };

const refused = (refusal: WifiRefusal, userId?: string): WifiDecision => ({ accepted: false, refusal, userId });

/** The audit row of a Wi-Fi decision: the reason word and the access point, never the name typed or a secret. */
export function wifiAuditEvent(decision: WifiDecision, facts: RadiusFacts, method: string, now: Date): AuditEvent {
  return {
    type: "wifi_sign_in",
    result: decision.accepted ? "success" : "failure",
    userId: decision.userId ?? null,
    reason: decision.accepted ? undefined : decision.refusal,
    occurredAt: now,
    details: { method, accessPoint: facts.calledStation ?? null, nasIdentifier: facts.nasIdentifier ?? null },
  };
}

type PersonFound = { refusal: WifiRefusal } | { identity: WifiIdentity; check: WifiPersonCheck; keys: ThrottleKey[] };

async function personFor(context: WifiContext, facts: RadiusFacts): Promise<PersonFound> {
  const identity = parseWifiIdentity(facts.userName, context.realm);
  if (!identity) return { refusal: "other_realm" };
  const check = await checkWifiPerson(context.db, identity.username);
  const keys = await wifiThrottleKeys(context.db, context.deviceKey, {
    username: identity.username,
    userId: check.person?.id,
    station: facts.callingStation,
  });
  return { identity, check, keys };
}

/**
 * TTLS/PAP: the password against the person's network passwords (any of them; the one the device part names
 * when given). The attempt is counted before the check; post-auth settles it on success, as for sign-ins.
 */
export async function authenticatePap(context: WifiContext, facts: RadiusFacts): Promise<WifiDecision> {
  const { db, now } = context;
  const found = await personFor(context, facts);
  if (!("check" in found)) return refused(found.refusal);
  const { identity, check, keys } = found;
  const decision = await takeAttempt(db, keys, now);
  if (!decision.allowed) return refused("throttled", check.person?.id);
  const outcome = await papOutcome(context, facts, identity.device, check);
  if (!outcome.accepted) await confirmFailure(db, keys, now);
  return outcome;
}

async function papOutcome(
  context: WifiContext,
  facts: RadiusFacts,
  device: string | undefined,
  check: WifiPersonCheck,
): Promise<WifiDecision> {
  if ("refusal" in check) return refused(check.refusal, check.person?.id);
  const { person } = check;
  if (!facts.password) return refused("wrong_password", person.id);
  const hashes = networkPasswordHashes(context.ring, facts.password);
  let query = context.db
    .selectFrom("wifi_passwords")
    .select(["id", "secret_hash"])
    .where("user_id", "=", person.id)
    .where("secret_hash", "in", hashes);
  if (device !== undefined) query = query.where("device", "=", device);
  const row = await query.executeTakeFirst();
  if (!row) return refused("wrong_password", person.id);
  // Matched under an older key (not resealed yet): made again under the newest now, while the password is here.
  if (row.secret_hash !== hashes[0]) {
    await context.db
      .updateTable("wifi_passwords")
      .set(storedNetworkPassword(context.ring, ntHash(facts.password)))
      .where("id", "=", row.id)
      .execute();
  }
  return { accepted: true, userId: person.id, passwordId: row.id };
}

/**
 * PEAP-MSCHAPv2 (and TTLS with MSCHAPv2 inside): FreeRADIUS checks the answer itself against the NT hash of
 * the one password the identity's device part names. Nothing is counted here (EAP asks in several rounds);
 * a refused answer is counted once, in post-auth. A waiting name or device gets no hash.
 */
export async function authorizeMschap(context: WifiContext, facts: RadiusFacts): Promise<WifiDecision> {
  const found = await personFor(context, facts);
  if (!("check" in found)) return refused(found.refusal);
  const { identity, check, keys } = found;
  if ("refusal" in check) return refused(check.refusal, check.person?.id);
  const { person } = check;
  if (await isWaiting(context.db, keys, context.now)) return refused("throttled", person.id);
  if (identity.device === undefined) return refused("no_password", person.id);
  const row = await context.db
    .selectFrom("wifi_passwords")
    .select(["id", "nt_hash_sealed"])
    .where("user_id", "=", person.id)
    .where("device", "=", identity.device)
    .executeTakeFirst();
  const opened = row ? unseal(context.ring, ntHashSealPurpose, row.nt_hash_sealed) : undefined;
  if (!row || !opened) return refused("no_password", person.id);
  return { accepted: true, userId: person.id, passwordId: row.id, ntHash: opened };
}

/** FreeRADIUS refused an MSCHAPv2 answer we had let through: a wrong password, counted like a PAP failure. */
export async function mschapRefused(context: WifiContext, facts: RadiusFacts): Promise<WifiDecision> {
  const found = await personFor(context, facts);
  if (!("check" in found)) return refused(found.refusal);
  await takeAttempt(context.db, found.keys, context.now);
  await confirmFailure(context.db, found.keys, context.now);
  return refused("wrong_password", "person" in found.check ? found.check.person?.id : undefined);
}

/**
 * FreeRADIUS accepted: the person is checked once more (disabled between the rounds?), the use recorded with
 * its access point, and the throttle settled. The password must still exist and be the person's.
 */
export async function recordAccepted(context: WifiContext, facts: RadiusFacts, method: string): Promise<WifiDecision> {
  const found = await personFor(context, facts);
  if (!("check" in found)) return refused(found.refusal);
  const { check, keys } = found;
  if ("refusal" in check) return refused(check.refusal, check.person?.id);
  const passwordId = facts.networkPasswordId ?? "";
  const { db, now } = context;
  const inserted = await sql<{ id: string; use_id: string }>`with used as (
      update wifi_passwords set last_used_at = ${now}
      where id::text = ${passwordId} and user_id = ${check.person.id} returning id
    )
    insert into wifi_uses (password_id, user_id, used_at, method, access_point, nas_identifier, station_hash)
    select id, ${check.person.id}, ${now}, ${method}, ${facts.calledStation?.slice(0, 200) ?? null},
      ${facts.nasIdentifier?.slice(0, 200) ?? null},
      ${facts.callingStation ? stationHash(context.deviceKey, facts.callingStation) : null}
    from used returning password_id as id, id::text as use_id`.execute(db);
  const row = inserted.rows[0];
  if (!row) return refused("no_password", check.person.id);
  await keepLatestUses(db, row.id);
  await settleSuccess(db, keys);
  return { accepted: true, userId: check.person.id, passwordId: row.id, useId: row.use_id };
}
