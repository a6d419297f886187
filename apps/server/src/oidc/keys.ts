import { createCipheriv, createDecipheriv, generateKeyPairSync, hkdfSync, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { openWithRing, type SecretRing } from "../crypto/key-ring.ts";
import { newToken } from "../crypto/tokens.ts";
import type { Db } from "../db/schema.ts";

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
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: newToken(12), alg: "RS256", use: "sig" } as PrivateJwk;
}

async function insertKey(db: Db, sessionSecret: string, now: Date): Promise<string> {
  const jwk = generateSigningJwk();
  await db
    .insertInto("oidc_signing_keys")
    .values({ kid: jwk.kid, encrypted_jwk: encryptJwk(jwk, sessionSecret), created_at: now })
    .execute();
  return jwk.kid;
}

function activeKey(db: Db) {
  return db.selectFrom("oidc_signing_keys").select("kid").where("retired_at", "is", null).executeTakeFirst();
}

/**
 * On first start there is no key: make one. Instances starting together take
 * a table lock, so exactly one key is made and every instance publishes it.
 */
export async function ensureSigningKey(db: Db, sessionSecret: string, now = new Date()): Promise<void> {
  if (await activeKey(db)) return;
  await db.transaction().execute(async (tx) => {
    await sql`lock table oidc_signing_keys in share row exclusive mode`.execute(tx);
    if (!(await activeKey(tx))) await insertKey(tx, sessionSecret, now);
  });
}

export interface RotationResult {
  kid: string;
  retired: string[];
}

/** Adds a new signing key and retires the current ones; they stay published for `retention`. */
export async function rotateSigningKeys(db: Db, sessionSecret: string, now = new Date()): Promise<RotationResult> {
  return db.transaction().execute(async (tx) => {
    const retired = await tx
      .updateTable("oidc_signing_keys")
      .set({ retired_at: now })
      .where("retired_at", "is", null)
      .returning("kid")
      .execute();
    const kid = await insertKey(tx, sessionSecret, now);
    return { kid, retired: retired.map((row) => row.kid) };
  });
}

/**
 * A new key is published at once but signs only after this delay: every
 * instance reloads its keys within a minute, so by then all of them publish it
 * and no application meets a token signed with a key its JWKS lacks.
 */
export const keyActivationDelaySeconds = 120;

/**
 * The keys to publish, the signing key first (oidc-provider signs with the
 * first key of the algorithm): the newest key past its activation delay, or
 * the oldest key when none is (the very first, alone or just rotated). Retired keys stay while tokens
 * they signed may still be presented; older ones are deleted.
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
  const activeSince = now.getTime() - keyActivationDelaySeconds * 1000;
  // All keys younger than the delay (a rotation right after the first start): the oldest keeps signing.
  const signer = rows.find((row) => row.created_at.getTime() <= activeSince) ?? rows.at(-1);
  const ordered = signer ? [signer, ...rows.filter((row) => row !== signer)] : rows;
  return ordered.map((row) => decryptJwk(row.kid, row.encrypted_jwk, ring));
}
