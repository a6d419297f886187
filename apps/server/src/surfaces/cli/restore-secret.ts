import { existsSync, readFileSync } from "node:fs";
import { checkSealedValues, type SealedCounts } from "../../model/housekeeping/reseal.ts";
import { loadGivenSessionSecrets } from "../../platform/config/index.ts";
import { generatedSessionSecretFile } from "../../platform/config/secrets.ts";
import { BackupRefusedError, type RestoredSecretCheck } from "../../platform/db/embedded-backup.ts";

// The session secret of an install that generated it into DATA_DIR (no SESSION_SECRET) is part of that install
// as much as its database: a backup carries it (unless --without-secret) and a restore puts it back. Whatever
// secret the restored server will run with is checked against the backup's sealed values before anything is
// put in place, so a restore never leaves a database whose signing keys and authenticator seeds nobody opens.

/** The generated DATA_DIR/session.secret a backup carries: only when SESSION_SECRET is not set (then it is used). */
export function secretToCarry(env: Record<string, string | undefined>, dataDir: string): string | undefined {
  if (loadGivenSessionSecrets(env) !== undefined) return undefined;
  const file = generatedSessionSecretFile(dataDir);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
}

const describeUnreadable = (counts: SealedCounts) =>
  [
    [counts.oidcSigningKeys, "OpenID Connect signing key(s)"],
    [counts.samlSigningKeys, "SAML signing key(s)"],
    [counts.totpFactors, "authenticator-app secret(s)"],
    [counts.wifiPasswords, "Wi-Fi network password(s)"],
  ]
    .filter(([count]) => Number(count) > 0)
    .map(([count, what]) => `${count} ${what}`)
    .join(", ");

/**
 * Which secret the restored server will run with: SESSION_SECRET when set, else the one the backup carries
 * (then written into DATA_DIR), else a DATA_DIR/session.secret already there, else none (one would be generated
 * at start, opening nothing). Refuses when it does not open every sealed value, naming what and why.
 */
export function restoredSecretCheck(env: Record<string, string | undefined>, dataDir: string): RestoredSecretCheck {
  const given = loadGivenSessionSecrets(env);
  const existingFile = generatedSessionSecretFile(dataDir);
  return async (db, carried) => {
    const existing = existsSync(existingFile) ? readFileSync(existingFile, "utf8").trim() : undefined;
    const [ring, source] = given
      ? [given, "SESSION_SECRET"]
      : carried !== undefined
        ? [[carried.trim()], "the session secret the backup carries"]
        : existing !== undefined
          ? [[existing], existingFile]
          : [[], undefined];
    const { unreadable } = await checkSealedValues(db, ring);
    const missing = describeUnreadable(unreadable);
    if (missing === "") return { installCarried: given === undefined && carried !== undefined };
    if (source === undefined) {
      throw new BackupRefusedError(
        "backup.session_secret_missing",
        `the backup holds ${missing} sealed with a session secret it does not carry (made with SESSION_SECRET ` +
          "set, or --without-secret), and neither SESSION_SECRET nor DATA_DIR/session.secret is here: set " +
          "SESSION_SECRET to the key the backup was made with and run this again",
      );
    }
    throw new BackupRefusedError(
      "backup.session_secret_mismatch",
      `${source} does not open ${missing} in the backup: set SESSION_SECRET to the key the backup was made ` +
        "with and run this again",
    );
  };
}
