import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { openWithRing, type SecretRing } from "./key-ring.ts";

/**
 * Secrets the server must read back (a TOTP secret) are stored sealed: AES-256-GCM under a key
 * derived (HKDF) from the session secret for one purpose, so a copy of the database alone
 * does not give them away. Format: base64url(iv ‖ tag ‖ ciphertext).
 */
function keyFor(sessionSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", sessionSecret, "kpi-id seal", purpose, 32));
}

export function seal(sessionSecret: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(sessionSecret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** The sealed text, or undefined when it was sealed with none of the ring's keys for this purpose. */
export function unseal(ring: SecretRing, purpose: string, sealed: string): string | undefined {
  return unsealWithRing(ring, purpose, sealed)?.value;
}

/** unseal, also telling whether an older key of the ring opened it (`secrets reseal` seals it again). */
export function unsealWithRing(ring: SecretRing, purpose: string, sealed: string) {
  return openWithRing(ring, (key) => unsealWithKey(key, purpose, sealed));
}

function unsealWithKey(sessionSecret: string, purpose: string, sealed: string): string | undefined {
  const raw = Buffer.from(sealed, "base64url");
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(sessionSecret, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
