import { sql } from "kysely";
import { generateSecret, generateURI, type VerifyResult, verify } from "otplib";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { seal, unseal } from "../../platform/crypto/seal.ts";
import type { Db } from "../../platform/db/schema.ts";

/** The purpose TOTP secrets are sealed for (crypto/seal.ts); `secrets reseal` seals them again under it. */
export const totpSealPurpose = "totp-secret";
/** RFC 6238 defaults every authenticator app reads: 30 s, 6 digits, SHA-1. */
const periodSeconds = 30;
/** One time step either side: a phone's clock a little off still works. */
const skewSeconds = periodSeconds;

export interface TotpState {
  /** When the factor was confirmed by its first code; null while it waits for it. */
  confirmedAt: Date | null;
}

/** The person's TOTP factor: absent, waiting for its first code, or confirmed. */
export async function totpState(db: Db, userId: string): Promise<TotpState | undefined> {
  const row = await db
    .selectFrom("totp_factors")
    .select("confirmed_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { confirmedAt: row.confirmed_at } : undefined;
}

/** Whether the person has a confirmed authenticator app, as a column of another area's statement (one round trip). */
export function confirmedTotpExists(userId: string) {
  return sql<boolean>`exists (select 1 from totp_factors where user_id = ${userId} and confirmed_at is not null)`;
}

/**
 * A new secret waiting for its first code (replacing one not yet confirmed); the otpauth URI
 * for the QR code. A confirmed factor is kept until it is removed.
 */
export async function startTotpSetup(
  db: Db,
  sessionSecret: string,
  person: { id: string; username: string },
  now: Date,
): Promise<{ secret: string; uri: string }> {
  const secret = generateSecret();
  await db.deleteFrom("totp_factors").where("user_id", "=", person.id).where("confirmed_at", "is", null).execute();
  await db
    .insertInto("totp_factors")
    .values({ user_id: person.id, secret_sealed: seal(sessionSecret, totpSealPurpose, secret), created_at: now })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  const uri = generateURI({ issuer: "KPI ID", label: person.username, secret });
  return { secret, uri };
}

/**
 * Checks a code against the person's factor (confirmed, or waiting for its first code when
 * `confirming`). A code's time step is accepted once: the step is recorded atomically, so a
 * replay, or two requests racing with one code, fail.
 */
export async function checkTotpCode(
  db: Db,
  ring: SecretRing,
  userId: string,
  code: string,
  now: Date,
  confirming = false,
): Promise<boolean> {
  const row = await db
    .selectFrom("totp_factors")
    .select(["secret_sealed", "last_time_step", "confirmed_at"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row || (row.confirmed_at === null) !== confirming) return false;
  const secret = unseal(ring, totpSealPurpose, row.secret_sealed);
  if (!secret || !/^\d{6}$/.test(code)) return false;
  const lastStep = Number(row.last_time_step);
  // The functional verify answers for TOTP or HOTP; with the TOTP strategy it is TOTP's result.
  const result = (await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: periodSeconds,
    epochTolerance: skewSeconds,
    afterTimeStep: lastStep,
  })) as VerifyResult;
  if (!result.valid) return false;
  const taken = await db
    .updateTable("totp_factors")
    .set({ last_time_step: result.timeStep, ...(confirming ? { confirmed_at: now } : {}) })
    .where("user_id", "=", userId)
    .where("last_time_step", "<", String(result.timeStep))
    .returning("user_id")
    .executeTakeFirst();
  return taken !== undefined;
}

export async function removeTotp(db: Db, userId: string): Promise<boolean> {
  const removed = await db.deleteFrom("totp_factors").where("user_id", "=", userId).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}
