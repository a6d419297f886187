import { generateKeyPairSync, type KeyObject } from "node:crypto";

/** Where new 2048-bit RSA private keys for signing come from. */
export type RsaKeySource = () => KeyObject;

const generate: RsaKeySource = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
let source = generate;

/** A new 2048-bit RSA private key: the OpenID Connect signing keys. */
export function newRsaSigningKey(): KeyObject {
  return source();
}

/**
 * The test suites' own source of keys. Every test app makes a signing key when it starts on its empty database:
 * 0.1-0.4 s of CPU each on the 2-core CI machine, about 270 apps per run (issue 41). The server's tests hand out
 * keys made earlier in the same process instead (test/support/rsa-keys.ts); nothing else may.
 */
export function useRsaKeySourceForTests(next: RsaKeySource): void {
  if (process.env.NODE_ENV === "production") throw new Error("the RSA key source is fixed in production");
  source = next;
}
