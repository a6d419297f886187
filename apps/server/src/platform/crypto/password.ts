import { type Algorithm, hash, verify } from "@node-rs/argon2";
import type { Config } from "../config/index.ts";

export type Argon2Parameters = Config["argon2"];

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Also true/false for a null hash (unknown user), after the same work as a real check. */
  verify(passwordHash: string | null, password: string): Promise<boolean>;
}

/**
 * argon2id with the configured (OWASP minimum or stronger) parameters. Passwords
 * are hashed whole: no truncation, no composition rules (NIST SP 800-63B).
 */
export function createPasswordHasher(parameters: Argon2Parameters): PasswordHasher {
  const options = {
    // Algorithm.Argon2id; the enum is a const enum that type stripping cannot inline.
    algorithm: 2 as Algorithm,
    memoryCost: parameters.memoryCost,
    timeCost: parameters.timeCost,
    parallelism: parameters.parallelism,
  };
  // Verified against when the user does not exist, so that an unknown username
  // costs the same time as a wrong password and cannot be told apart.
  let dummyHash: Promise<string> | undefined;
  const getDummyHash = () => {
    dummyHash ??= hash("kpi-id dummy password for timing equality", options);
    return dummyHash;
  };

  return {
    hash: (password) => hash(password, options),
    async verify(passwordHash, password) {
      if (passwordHash === null) {
        await verify(await getDummyHash(), password).catch(() => false);
        return false;
      }
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
  };
}
