import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A bearer secret: 256 bits from the CSPRNG, URL-safe. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Tokens are high-entropy, so a fast hash is enough to keep the stored form useless to a thief. */
export function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

export function hashTokenHex(token: string): string {
  return hashToken(token).toString("hex");
}

export function tokensEqualHex(storedHex: string, presented: string): boolean {
  const expected = Buffer.from(storedHex, "hex");
  const actual = hashToken(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
