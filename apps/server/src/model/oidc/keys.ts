import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { openWithRing, type SecretRing } from "../../platform/crypto/key-ring.ts";
import { newRsaSigningKey } from "../../platform/crypto/rsa-keys.ts";
import { newKeyId } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

export interface PrivateJwk {
  kty: string;
  kid: string;
  alg: string;
  use: string;
  [member: string]: unknown;
}

/** Thrown when stored keys cannot be read, which means SESSION_SECRET changed. */
export class SigningKeyDecryptionError extends Error {
  override name = "SigningKeyDecryptionError";
}

/** A separate 256-bit key per purpose, derived from SESSION_SECRET, so one secret serves all. */
export function deriveKey(sessionSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", sessionSecret, "kpi-id", purpose, 32));
}

const keyEncryptionPurpose = "oidc signing key encryption";

export function encryptJwk(jwk: PrivateJwk, sessionSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(sessionSecret, keyEncryptionPurpose), iv);
  // The kid is bound as associated data so a row's key cannot be swapped into another row.
  cipher.setAAD(Buffer.from(jwk.kid));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(jwk), "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The stored key, opened with the first key of SESSION_SECRET's ring that can; olderKey when not the newest. */
export function decryptJwkWithRing(kid: string, stored: string, ring: SecretRing) {
  const opened = openWithRing(ring, (key) => {
    try {
      return decryptJwkWithKey(kid, stored, key);
    } catch (error) {
      if (error instanceof SigningKeyDecryptionError && error.cause !== undefined) return undefined;
      throw error;
    }
  });
  if (!opened)
    throw new SigningKeyDecryptionError(
      `signing key ${kid} cannot be decrypted: no key of SESSION_SECRET is the one it was stored with`,
    );
  return opened;
}

export function decryptJwk(kid: string, stored: string, ring: SecretRing): PrivateJwk {
  return decryptJwkWithRing(kid, stored, ring).value;
}

function decryptJwkWithKey(kid: string, stored: string, sessionSecret: string): PrivateJwk {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !ciphertext)
    throw new SigningKeyDecryptionError(`signing key ${kid}: unknown format`);
  try {
    const decipher = createDecipheriv(
      "aes-256-gcm",
      deriveKey(sessionSecret, keyEncryptionPurpose),
      Buffer.from(iv, "base64url"),
    );
    decipher.setAAD(Buffer.from(kid));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
    return JSON.parse(plain.toString("utf8")) as PrivateJwk;
  } catch (cause) {
    throw new SigningKeyDecryptionError(
      `signing key ${kid} cannot be decrypted: SESSION_SECRET is not the one it was stored with`,
      { cause },
    );
  }
}

function generateSigningJwk(): PrivateJwk {
  const privateKey = newRsaSigningKey();
  return { ...privateKey.export({ format: "jwk" }), kid: newKeyId(), alg: "RS256", use: "sig" } as PrivateJwk;
}

/** Stores a new key: signing from `activatesAt`, or a next key (published, not signing) when null. */
export async function insertKey(db: Db, sessionSecret: string, now: Date, activatesAt: Date | null): Promise<string> {
  const jwk = generateSigningJwk();
  await db
    .insertInto("oidc_signing_keys")
    .values({ kid: jwk.kid, encrypted_jwk: encryptJwk(jwk, sessionSecret), created_at: now, activates_at: activatesAt })
    .execute();
  return jwk.kid;
}

function activeKey(db: Db) {
  return db
    .selectFrom("oidc_signing_keys")
    .select("kid")
    .where("retired_at", "is", null)
    .where("activates_at", "is not", null)
    .executeTakeFirst();
}

/**
 * On first start there is no key: make one. Instances starting together take
 * a table lock, so exactly one key is made and every instance publishes it.
 */
export async function ensureSigningKey(db: Db, sessionSecret: string, now = new Date()): Promise<void> {
  if (await activeKey(db)) return;
  await db.transaction().execute(async (tx) => {
    await sql`lock table oidc_signing_keys in share row exclusive mode`.execute(tx);
    if (!(await activeKey(tx))) await insertKey(tx, sessionSecret, now, now);
  });
}

/**
 * A new key is published at once but signs only after this delay: every
 * instance reloads its keys within a minute, so by then all of them publish it
 * and no application meets a token signed with a key its JWKS lacks.
 */
export const keyActivationDelaySeconds = 120;

/** Where a stored key is in its rollover: next (published, not signing yet), current (signs), previous (verifies). */
export type KeyState = "next" | "current" | "previous";

interface StoredKeyTimes {
  kid: string;
  created_at: Date;
  activates_at: Date | null;
}

/**
 * The signing key: the one activated last whose time has come; when none has
 * (the very first key, or a rotation right after it), the one due first keeps
 * signing; a key never promoted signs only when it is the only key there is.
 */
export function keyStates<Row extends StoredKeyTimes>(rows: Row[], now: Date): Map<Row, KeyState> {
  const due = rows.filter((row) => row.activates_at !== null);
  const active = due.filter((row) => (row.activates_at as Date).getTime() <= now.getTime());
  const byActivation = (a: Row, b: Row) => (a.activates_at as Date).getTime() - (b.activates_at as Date).getTime();
  const signer = active.sort(byActivation).at(-1) ?? due.sort(byActivation)[0] ?? rows[0];
  return new Map(
    rows.map((row) => {
      if (row === signer) return [row, "current"];
      const waiting = row.activates_at === null || row.activates_at.getTime() > now.getTime();
      return [row, waiting ? "next" : "previous"];
    }),
  );
}

/**
 * The keys to publish, the signing key first (oidc-provider signs with the
 * first key of the algorithm), then the next key and the previous ones. A key
 * that stopped signing stays while tokens it signed may still be presented
 * (`retentionSeconds`, the overlap); older ones are deleted.
 */
export async function loadPublishedKeys(
  db: Db,
  ring: SecretRing,
  retentionSeconds: number,
  now = new Date(),
): Promise<PrivateJwk[]> {
  const cutoff = new Date(now.getTime() - retentionSeconds * 1000);
  await db.deleteFrom("oidc_signing_keys").where("retired_at", "<", cutoff).execute();
  const rows = await db.selectFrom("oidc_signing_keys").selectAll().orderBy("created_at", "desc").execute();
  const states = keyStates(rows, now);
  const order: KeyState[] = ["current", "next", "previous"];
  const ordered = order.flatMap((state) => rows.filter((row) => states.get(row) === state));
  return ordered.map((row) => decryptJwk(row.kid, row.encrypted_jwk, ring));
}

/** Every stored signing key's dates, newest first (the `keys list` and the console's screen). */
export function signingKeyDates(db: Db) {
  return db
    .selectFrom("oidc_signing_keys")
    .select(["kid", "created_at", "activates_at", "retired_at"])
    .orderBy("created_at", "desc")
    .execute();
}
