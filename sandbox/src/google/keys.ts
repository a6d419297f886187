import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { JWK } from "oidc-provider";

/** A fresh RS256 signing key for ID tokens; the stand-in makes one per start, as nothing outlives it. */
export function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = privateKey.export({ format: "jwk" });
  return { ...jwk, kid: `sandbox-${randomBytes(6).toString("hex")}`, alg: "RS256", use: "sig" } as JWK;
}

/** Keys for the provider's signed cookies. */
export function newCookieKeys(): string[] {
  return [randomBytes(32).toString("base64url")];
}
