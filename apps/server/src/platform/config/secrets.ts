import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

export const MIN_SECRET_LENGTH = 32;

/** Values that appear in `.env.example` and docs; a production service must never run with them. */
const exampleSecretMarkers = ["change-me", "changeme", "example", "replace-with", "secret-secret"];

export type SecretProblem = "too_short" | "example_value" | "low_variety";

export function secretProblem(secret: string): SecretProblem | undefined {
  if (secret.length < MIN_SECRET_LENGTH) return "too_short";
  const lower = secret.toLowerCase();
  if (exampleSecretMarkers.some((marker) => lower.includes(marker))) return "example_value";
  if (new Set(secret).size < 10) return "low_variety";
  return undefined;
}

export function describeSecretProblem(problem: SecretProblem): string {
  switch (problem) {
    case "too_short":
      return `must be at least ${MIN_SECRET_LENGTH} characters (try: openssl rand -base64 48)`;
    case "example_value":
      return "is still the example value; generate a new one (openssl rand -base64 48)";
    case "low_variety":
      return "is too repetitive to be a secret; generate one (openssl rand -base64 48)";
  }
}

/**
 * Outside production a newcomer should not have to invent a secret, so one is
 * made once and kept beside the embedded database; restarts keep sessions valid.
 */
export function developmentSecret(dataDir: string, name: string): string {
  const file = join(dataDir, `${name}.secret`);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** Where the session secret generated outside production is kept (developmentSecret). */
export const generatedSessionSecretFile = (dataDir: string) => join(dataDir, "session.secret");

/**
 * SESSION_SECRET's keys, newest first: separated by commas or line breaks (a SESSION_SECRET_FILE
 * holds one a line). Each key must pass the checks; the newest signs, the others only verify.
 */
export function resolveSessionSecrets(environment: Environment, dataDir: string): [string, ...string[]] {
  const given = givenSessionSecrets(environment);
  if (given) return given;
  if (environment.NODE_ENV === "production") throw new ConfigError("SESSION_SECRET: is required in production");
  return [developmentSecret(dataDir, "session")];
}

/** SESSION_SECRET's keys when it is set (checked as resolveSessionSecrets does), undefined when it is not. */
export function givenSessionSecrets(
  environment: Pick<Environment, "SESSION_SECRET" | "NODE_ENV">,
): [string, ...string[]] | undefined {
  const value = environment.SESSION_SECRET;
  const isProduction = environment.NODE_ENV === "production";
  if (value === undefined) return undefined;
  const keys = value
    .split(/[,\r\n]+/)
    .map((key) => key.trim())
    .filter((key) => key !== "");
  const [newest, ...older] = keys;
  if (newest === undefined) throw new ConfigError("SESSION_SECRET: holds no key");
  for (const [index, key] of keys.entries()) {
    const problem = secretProblem(key);
    if (problem && (isProduction || problem === "too_short")) {
      const which = keys.length > 1 ? ` (key ${index + 1} of ${keys.length})` : "";
      throw new ConfigError(`SESSION_SECRET${which}: ${describeSecretProblem(problem)}`);
    }
  }
  if (new Set(keys).size !== keys.length) throw new ConfigError("SESSION_SECRET: holds the same key twice");
  return [newest, ...older];
}
