import { readFileSync } from "node:fs";
import { ConfigError } from "./error.ts";

/**
 * Every setting that holds a secret may instead name a file holding it, `NAME_FILE`, as Docker and
 * Kubernetes mount secrets (/run/secrets/...), so the value is in no process environment or
 * `docker inspect`. A sign-in method that adds a secret adds its variable here.
 */
export const secretVariables = [
  "SESSION_SECRET",
  "DATABASE_URL",
  "METRICS_TOKEN",
  "SMTP_URL",
  "DIIA_ACQUIRER_TOKEN",
  "DIIA_AUTH_ACQUIRER_TOKEN",
  "GOOGLE_CLIENT_SECRET",
  "BANKID_CLIENT_SECRET",
  "BANKID_KEY",
  "BANKID_KEY_PASSWORD",
  "SAML_PAIRWISE_SALT",
  "RADIUS_REST_SECRET",
  "RADIUS_COA_SECRET",
] as const;

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/**
 * The environment with each `NAME_FILE` read into `NAME`. Both set is refused (which one wins would
 * be a guess); an unreadable or empty file is refused with its path. The file's final line break
 * goes (editors and `echo` add one); a SESSION_SECRET file may hold one key a line, newest first.
 */
export function withSecretFiles(
  source: Record<string, string | undefined>,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): Record<string, string | undefined> {
  const environment = { ...source };
  for (const name of secretVariables) {
    const path = source[`${name}_FILE`];
    if (!isSet(path)) continue;
    if (isSet(source[name])) throw new ConfigError(`${name} and ${name}_FILE: set one of them, not both`);
    let contents: string;
    try {
      contents = readFile(path);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ConfigError(`${name}_FILE: cannot read ${path} (${reason})`);
    }
    const value = contents.replace(/(\r?\n)+$/, "");
    if (value.trim() === "") throw new ConfigError(`${name}_FILE: ${path} is empty`);
    environment[name] = value;
  }
  return environment;
}
