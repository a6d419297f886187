import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/platform/config/index.ts";
import { secretVariables } from "../../../src/platform/config/secret-files.ts";

const directory = mkdtempSync(join(tmpdir(), "kpi-id-secret-files-"));
const secretFile = (name: string, contents: string) => {
  const path = join(directory, name);
  writeFileSync(path, contents, { mode: 0o600 });
  return path;
};
const base = { NODE_ENV: "test", DATA_DIR: join(directory, "data"), LOG_LEVEL: "silent" };
const keyA = "first-session-key-0123456789-abcdefghijklmnopqr";
const keyB = "second-session-key-9876543210-zyxwvutsrqponmlk";

describe("secrets read from files (NAME_FILE)", () => {
  it("reads SESSION_SECRET_FILE, leaving out the final line break", () => {
    const config = loadConfig({ ...base, SESSION_SECRET_FILE: secretFile("session", `${keyA}\n`) });
    expect(config.sessionSecret).toBe(keyA);
  });

  it("reads every secret variable from its file", () => {
    const values: Record<(typeof secretVariables)[number], string> = {
      SESSION_SECRET: keyA,
      DATABASE_URL: "postgres://kpi_id:pa55@db.internal:5432/kpi_id",
      METRICS_TOKEN: "metrics-token-from-a-file-0123456789",
      SMTP_URL: "smtp://mailer:pa55@mail.internal:587",
      DIIA_ACQUIRER_TOKEN: "acquirer-token-from-a-file",
      DIIA_AUTH_ACQUIRER_TOKEN: "auth-acquirer-token-from-a-file",
      GOOGLE_CLIENT_SECRET: "google-client-secret-from-a-file",
      BANKID_CLIENT_SECRET: "bankid-client-secret-from-a-file",
      BANKID_KEY: "-----BEGIN PRIVATE KEY-----\nfrom-a-file\n-----END PRIVATE KEY-----",
      BANKID_KEY_PASSWORD: "key-password-from-a-file",
      SAML_PAIRWISE_SALT: "pairwise-salt-from-a-file",
      RADIUS_REST_SECRET: "radius-rest-secret-from-a-file-0123456789",
      RADIUS_COA_SECRET: "radius-coa-secret-from-a-file-0123456789",
    };
    const files = Object.fromEntries(
      Object.entries(values).map(([name, value]) => [`${name}_FILE`, secretFile(name, `${value}\n`)]),
    );
    const config = loadConfig({
      ...base,
      ...files,
      DIIA_BASE_URL: "http://127.0.0.1:9999",
      GOOGLE_CLIENT_ID: "client-id",
      BANKID_BASE_URL: "http://127.0.0.1:9998",
      BANKID_CLIENT_ID: "bankid-client",
      BANKID_CERTIFICATE: "/etc/kpi-id/bankid.cer",
      BANKID_TRUST_ANCHORS: "/etc/kpi-id/bankid-cas.pem",
    });
    expect(config.sessionSecret).toBe(values.SESSION_SECRET);
    expect(config.database.url).toBe(values.DATABASE_URL);
    expect(config.metricsToken).toBe(values.METRICS_TOKEN);
    expect(config.mail?.smtpUrl).toBe(values.SMTP_URL);
    expect(config.diia?.acquirerToken).toBe(values.DIIA_ACQUIRER_TOKEN);
    expect(config.diia?.authAcquirerToken).toBe(values.DIIA_AUTH_ACQUIRER_TOKEN);
    expect(config.google?.clientSecret).toBe(values.GOOGLE_CLIENT_SECRET);
    expect(config.bankId?.clientSecret).toBe(values.BANKID_CLIENT_SECRET);
    expect(config.bankId?.key).toEqual({ pem: values.BANKID_KEY });
    expect(config.saml.pairwiseSalt).toBe(values.SAML_PAIRWISE_SALT);
    expect(config.wifi.restSecret).toBe(values.RADIUS_REST_SECRET);
    expect(config.wifi.coa?.secret).toBe(values.RADIUS_COA_SECRET);
  });

  it("refuses a variable set both ways, an unreadable file and an empty one, naming them", () => {
    const file = secretFile("both", keyA);
    expect(() => loadConfig({ ...base, SESSION_SECRET: keyA, SESSION_SECRET_FILE: file })).toThrow(
      new ConfigError("SESSION_SECRET and SESSION_SECRET_FILE: set one of them, not both"),
    );
    const missing = join(directory, "no-such-file");
    expect(() => loadConfig({ ...base, METRICS_TOKEN_FILE: missing })).toThrow(
      new ConfigError(`METRICS_TOKEN_FILE: cannot read ${missing} (ENOENT)`),
    );
    const empty = secretFile("empty", "\n");
    expect(() => loadConfig({ ...base, GOOGLE_CLIENT_SECRET_FILE: empty })).toThrow(
      new ConfigError(`GOOGLE_CLIENT_SECRET_FILE: ${empty} is empty`),
    );
  });

  it("checks a value read from a file as it checks one set directly", () => {
    const file = secretFile("short", "too-short\n");
    expect(() => loadConfig({ ...base, SESSION_SECRET_FILE: file })).toThrow(/SESSION_SECRET: must be at least 32/);
  });
});

describe("SESSION_SECRET as a key ring", () => {
  it("takes keys newest first, separated by commas or, in a file, by lines", () => {
    const salt = { SAML_PAIRWISE_SALT: "pinned-salt" };
    const listed = loadConfig({ ...base, ...salt, SESSION_SECRET: `${keyB}, ${keyA}` });
    expect(listed.sessionSecret).toBe(keyB);
    expect(listed.sessionSecrets).toEqual([keyB, keyA]);
    const filed = loadConfig({ ...base, ...salt, SESSION_SECRET_FILE: secretFile("ring", `${keyB}\n${keyA}\n`) });
    expect(filed.sessionSecrets).toEqual([keyB, keyA]);
  });

  it("checks every key and refuses one listed twice", () => {
    const salt = { SAML_PAIRWISE_SALT: "pinned-salt" };
    expect(() => loadConfig({ ...base, ...salt, SESSION_SECRET: `${keyB},short` })).toThrow(
      /SESSION_SECRET \(key 2 of 2\): must be at least 32/,
    );
    expect(() => loadConfig({ ...base, ...salt, SESSION_SECRET: `${keyA},${keyA}` })).toThrow(
      new ConfigError("SESSION_SECRET: holds the same key twice"),
    );
    const production = { NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua", ...salt };
    expect(() =>
      loadConfig({ ...base, ...production, SESSION_SECRET: `${keyB},replace-with-openssl-rand-base64-48-output` }),
    ).toThrow(/SESSION_SECRET \(key 2 of 2\): is still the example value/);
  });

  it("asks for SAML_PAIRWISE_SALT once there are two keys, and the salt it would derive is the one-key value", () => {
    expect(() => loadConfig({ ...base, SESSION_SECRET: `${keyB},${keyA}` })).toThrow(/SAML_PAIRWISE_SALT: must be set/);
    const derived = loadConfig({ ...base, SESSION_SECRET: keyA }).saml.pairwiseSalt;
    const pinned = loadConfig({ ...base, SESSION_SECRET: `${keyB},${keyA}`, SAML_PAIRWISE_SALT: derived });
    expect(pinned.saml.pairwiseSalt).toBe(derived);
  });
});

describe("the operators' documentation of secret files", () => {
  it("names every NAME_FILE in .env.example and docs/operations.md", () => {
    const read = (path: string) => readFileSync(new URL(`../../../../../${path}`, import.meta.url), "utf8");
    const example = read(".env.example");
    const operations = read("docs/operations.md");
    expect(secretVariables.filter((name) => !example.includes(name))).toEqual([]);
    expect(secretVariables.filter((name) => !operations.includes(`\`${name}_FILE\``))).toEqual([]);
  });
});
