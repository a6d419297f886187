import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { JWK } from "oidc-provider";
import { keptPki, madeFrom } from "../kept-pki.ts";

/** A fresh RS256 signing key for ID tokens. */
export function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = privateKey.export({ format: "jwk" });
  return { ...jwk, kid: `sandbox-${randomBytes(6).toString("hex")}`, alg: "RS256", use: "sig" } as JWK;
}

/** Keys for the provider's signed cookies. */
export function newCookieKeys(): string[] {
  return [randomBytes(32).toString("base64url")];
}

/**
 * The signing key: made afresh in each process, or, given a DATA_DIR (`npm start`), the one kept there since an
 * earlier start (an RSA key is 0.7 s of CPU; kept-pki.ts).
 */
export function signingKey(dataDir: string | undefined): JWK {
  return keptPki({
    dataDir,
    name: "google-signing-key",
    fingerprint: madeFrom([new URL(import.meta.url)], "RS256"),
    make: newSigningKey,
  });
}
