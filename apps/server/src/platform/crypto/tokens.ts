import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The one place for bearer secrets (sessions, grants, tickets, application and client secrets):
 * how they are made, how they are stored, how a presented one is compared.
 */

/** A bearer secret: 256 bits from the CSPRNG, URL-safe. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * A signing key's id (`kid`): random like a token, but never starting with "-", which an operator's
 * `--kid <id>` would read as another option (one id in 64 did).
 */
export function newKeyId(): string {
  const id = newToken(12);
  return id.startsWith("-") ? `k${id.slice(1)}` : id;
}

/** Tokens are high-entropy, so a fast hash is enough to keep the stored form useless to a thief. */
export function hashToken(token: string): Buffer {
  // The one-shot hash: a Hash object per call cost a GET /user more than its database lookup once cached.
  return hash("sha256", token, "buffer");
}

export function hashTokenHex(token: string): string {
  return hashToken(token).toString("hex");
}

/** The one constant-time comparison: equal bytes, in time that does not depend on where they differ. */
export function sameBytes(expected: Buffer, actual: Buffer): boolean {
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Two strings compared in constant time (for secrets held in clear, such as a state or a bearer token). */
export function sameText(expected: string, actual: string): boolean {
  return sameBytes(Buffer.from(expected, "utf8"), Buffer.from(actual, "utf8"));
}

/** Whether a presented secret is the one whose SHA-256 is stored (hex), in constant time. */
export function matchesTokenHash(storedHex: string, presented: string): boolean {
  return sameBytes(Buffer.from(storedHex, "hex"), hashToken(presented));
}
