import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

/** V1 sends the field-by-field declaration; V2 sends only our certificate and names a `dataset` (research §1). */
export type BankIdVersion = "v1" | "v2";

/**
 * Sign-in with BankID NBU (docs/bankid.md). Values are kept as configured; the key and certificates
 * are parsed when the server starts (bankid/runtime.ts), which stops start-up naming the variable.
 */
export interface BankIdConfig {
  /** The NBU node: https://id.bank.gov.ua, https://testid.bank.gov.ua, or the sandbox stand-in. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The organisation's encryption key: PEM (BANKID_KEY), or a key container's path and password. */
  key: { pem: string } | { containerPath: string; password: string };
  /** The organisation's key-agreement certificate: PEM inline or the path of a PEM or DER file. */
  certificate: string;
  /** PEM certificates (inline or a file path) of the qualified CAs that issue banks' certificates. */
  trustAnchors: string;
  intermediateCas?: string;
  /** CRL files or URLs of those CAs; empty when revocation is not checked. */
  crls: string[];
  crlGraceSeconds: number;
  version: BankIdVersion;
  /** V2's dataset number, fixed with NBU when the organisation registered its list of keys. */
  dataset?: string;
  /** The login page shows KPI ID's own bank list (GET /api/banks) instead of NBU's chooser. */
  bankPicker: boolean;
  /** Send redirect_uri on authorize and token (NBU's example does; Diia relies on the registered one). */
  sendRedirectUri: boolean;
  /** How long /api/banks' answer is kept before NBU is asked again. */
  banksCacheSeconds: number;
}

const required = [
  "BANKID_CLIENT_ID",
  "BANKID_CLIENT_SECRET",
  "BANKID_CERTIFICATE",
  "BANKID_TRUST_ANCHORS",
] as const satisfies (keyof Environment)[];

function readKey(environment: Environment): BankIdConfig["key"] {
  const { BANKID_KEY: pem, BANKID_KEY_CONTAINER: containerPath, BANKID_KEY_PASSWORD: password } = environment;
  if (pem !== undefined && containerPath !== undefined)
    throw new ConfigError("BANKID_KEY and BANKID_KEY_CONTAINER: set one of them, not both");
  if (pem !== undefined) return { pem };
  if (containerPath === undefined)
    throw new ConfigError("BANKID_KEY: is required when BANKID_BASE_URL is set (or BANKID_KEY_CONTAINER)");
  if (password === undefined)
    throw new ConfigError("BANKID_KEY_PASSWORD: is required when BANKID_KEY_CONTAINER is set");
  return { containerPath, password };
}

function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((each) => each.trim())
    .filter((each) => each !== "");
}

/** BankID NBU is on when BANKID_BASE_URL is set; then everything it needs must be, or start-up stops. */
export function readBankIdConfig(environment: Environment): BankIdConfig | undefined {
  const baseUrl = environment.BANKID_BASE_URL;
  if (baseUrl === undefined) {
    const stray = required.find((variable) => environment[variable] !== undefined);
    if (stray) throw new ConfigError(`BANKID_BASE_URL: is required when ${stray} is set`);
    return undefined;
  }
  for (const variable of required) {
    if (environment[variable] === undefined)
      throw new ConfigError(`${variable}: is required when BANKID_BASE_URL is set`);
  }
  const version = environment.BANKID_VERSION;
  const dataset = environment.BANKID_DATASET;
  if (version === "v2" && dataset === undefined)
    throw new ConfigError("BANKID_DATASET: is required when BANKID_VERSION=v2 (the number agreed with NBU)");
  return {
    baseUrl,
    clientId: environment.BANKID_CLIENT_ID ?? "",
    clientSecret: environment.BANKID_CLIENT_SECRET ?? "",
    key: readKey(environment),
    certificate: environment.BANKID_CERTIFICATE ?? "",
    trustAnchors: environment.BANKID_TRUST_ANCHORS ?? "",
    intermediateCas: environment.BANKID_INTERMEDIATE_CAS,
    crls: listOf(environment.BANKID_CRLS),
    crlGraceSeconds: environment.BANKID_CRL_GRACE_SECONDS,
    version,
    dataset,
    bankPicker: environment.BANKID_BANK_PICKER ?? false,
    sendRedirectUri: environment.BANKID_SEND_REDIRECT_URI ?? true,
    banksCacheSeconds: environment.BANKID_BANKS_CACHE_SECONDS,
  };
}

/** The BankID addresses that carry secrets or people's data: https in production (loopback aside). */
export function bankIdAddresses(environment: Environment): [string, string][] {
  const urls = listOf(environment.BANKID_CRLS).filter((source) => /^[a-z][a-z0-9+.-]*:\/\//i.test(source));
  return [
    ...(environment.BANKID_BASE_URL ? [["BANKID_BASE_URL", environment.BANKID_BASE_URL] as [string, string]] : []),
    ...urls.map((url): [string, string] => ["BANKID_CRLS", url]),
  ];
}
