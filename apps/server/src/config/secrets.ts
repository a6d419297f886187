import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
