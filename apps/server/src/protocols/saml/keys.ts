// @peculiar/x509 resolves its ASN.1 providers through tsyringe, which needs the Reflect metadata API.
import "reflect-metadata";
import { createPrivateKey, type JsonWebKey, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { decryptJwk, encryptJwk, type PrivateJwk } from "../../model/oidc/keys.ts";
import {
  activateSamlKey,
  ensureFirstSamlKey,
  insertSamlKey,
  publishedSamlKeys,
  retireStoredSamlKey,
} from "../../model/saml/signing-keys.ts";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import { newKeyId } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const algorithm = {
  name: "RSASSA-PKCS1-v1_5",
  hash: "SHA-256",
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
// Federation metadata pins the certificate, not its dates (SAML ignores expiry); ten years avoids needless rollovers.
const certificateYears = 10;

export interface SamlKey {
  kid: string;
  /** PKCS#8 PEM, what samlify signs with. */
  privateKeyPem: string;
  /** Base64 DER without PEM armour, as metadata carries it. */
  certificate: string;
  activatesAt: Date;
}

/** A new RSA key and a self-signed certificate for it; SAML trust comes from metadata, not from a CA. */
async function generateKey(commonName: string, now: Date): Promise<{ jwk: PrivateJwk; certificate: string }> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + certificateYears);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    name: `CN=${commonName}`,
    notBefore: now,
    notAfter,
    keys,
    signingAlgorithm: algorithm,
  });
  const exported = (await webcrypto.subtle.exportKey("jwk", keys.privateKey)) as Record<string, unknown>;
  const jwk = { ...exported, kid: newKeyId(), alg: "RS256", use: "sig", kty: "RSA" } as PrivateJwk;
  return { jwk, certificate: Buffer.from(certificate.rawData).toString("base64") };
}

/** A new key as it is stored: its JWK sealed with the session secret, its self-signed certificate. */
async function newStoredKey(sessionSecret: string, commonName: string, now: Date, activatesAt: Date) {
  const { jwk, certificate } = await generateKey(commonName, now);
  return { kid: jwk.kid, encryptedJwk: encryptJwk(jwk, sessionSecret), certificate, now, activatesAt };
}

async function insertKey(db: Db, sessionSecret: string, commonName: string, now: Date, activatesAt: Date) {
  const key = await newStoredKey(sessionSecret, commonName, now, activatesAt);
  await insertSamlKey(db, key);
  return key.kid;
}

/** First start: make the key (model/saml makes exactly one of instances starting together). */
export async function ensureSamlKey(db: Db, sessionSecret: string, commonName: string, now = new Date()) {
  await ensureFirstSamlKey(db, () => newStoredKey(sessionSecret, commonName, now, now));
}

/**
 * Key rollover the federation way: the new key is published at once and signs
 * from `activatesAt`, by when every SP has refreshed the metadata; the old key
 * stays published until the operator removes it.
 */
export async function addRolloverKey(
  db: Db,
  sessionSecret: string,
  commonName: string,
  activatesAt: Date,
  now = new Date(),
) {
  return insertKey(db, sessionSecret, commonName, now, activatesAt);
}

/**
 * `saml keys promote`: the next key (in the metadata, not signing yet) signs
 * from now instead of at its set time; the key that signed until now stays in
 * the metadata (previous) until `saml keys remove`. Null when there is no next key.
 */
export async function promoteSamlKey(db: Db, now = new Date()): Promise<string | null> {
  const { published } = await loadSamlKeys(db, undefined, now);
  const next = published.filter((key) => key.activatesAt.getTime() > now.getTime()).at(-1);
  if (!next) return null;
  await activateSamlKey(db, next.kid, now);
  return next.kid;
}

/** Takes a key out of the metadata; the signing key cannot be removed. */
export async function retireSamlKey(db: Db, kid: string, now = new Date()): Promise<"retired" | "unknown" | "signing"> {
  const keys = await loadSamlKeys(db, undefined, now);
  if (keys.signing?.kid === kid) return "signing";
  return (await retireStoredSamlKey(db, kid, now)) ? "retired" : "unknown";
}

export interface SamlKeys {
  /** The newest key whose activation time has come. */
  signing?: SamlKey;
  /** Every key in the metadata, the signing one first. */
  published: SamlKey[];
}

/** Reads the keys; without SESSION_SECRET's ring, only their public parts (the CLI list). */
export async function loadSamlKeys(db: Db, ring: SecretRing | undefined, now = new Date()): Promise<SamlKeys> {
  const rows = await publishedSamlKeys(db);
  const keys = rows.map((row) => ({
    kid: row.kid,
    certificate: row.certificate,
    activatesAt: row.activates_at,
    privateKeyPem: ring ? pemOf(decryptJwk(row.kid, row.encrypted_jwk, ring)) : "",
  }));
  const signing = keys.find((key) => key.activatesAt.getTime() <= now.getTime()) ?? keys.at(-1);
  return { signing, published: signing ? [signing, ...keys.filter((key) => key !== signing)] : keys };
}

function pemOf(jwk: PrivateJwk): string {
  const { kid: _kid, alg: _alg, use: _use, ...material } = jwk;
  return createPrivateKey({ key: material as JsonWebKey, format: "jwk" })
    .export({ type: "pkcs8", format: "pem" })
    .toString();
}

/** PEM armour around a metadata certificate, for libraries that want it. */
export function certificatePem(base64Der: string): string {
  const lines = base64Der.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}
