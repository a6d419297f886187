import { resolve } from "node:path";
import type { z } from "zod";
import { tracingWanted } from "../tracing/hooks.ts";
import { type BankIdConfig, bankIdAddresses, readBankIdConfig } from "./bankid.ts";
import { type DiiaConfig, listOfCrlSources, readDiiaConfig } from "./diia.ts";
import { ConfigError } from "./error.ts";
import { type MetricsAccess, readMetricsAccess } from "./metrics.ts";
import { readSamlConfig, type SamlConfig } from "./saml.ts";
import { type Environment, environmentSchema } from "./schema.ts";
import { withSecretFiles } from "./secret-files.ts";
import { givenSessionSecrets, resolveSessionSecrets } from "./secrets.ts";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.ts";
import { readWifiConfig, type WifiConfig } from "./wifi.ts";

export type { BankIdConfig } from "./bankid.ts";
export type { DiiaBranchAddress, DiiaConfig } from "./diia.ts";
export { ConfigError } from "./error.ts";
export type { MetricsAccess } from "./metrics.ts";
export type { Environment } from "./schema.ts";
export type { WifiConfig } from "./wifi.ts";

export interface Config {
  env: Environment["NODE_ENV"];
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string;
  /** Cookies get `Secure` and the `__Host-` prefix when the service is served over https. */
  secureCookies: boolean;
  /** Whose X-Forwarded-For is believed: the proxies' addresses/CIDRs, or a hop count (Fastify's trustProxy). */
  trustProxy: TrustProxy;
  /** IPv6 clients are counted by this prefix of their address when throttled. */
  throttleIpv6PrefixLength: number;
  /** Node's HTTP server limits: a client that is slow to send its headers or body is cut off. */
  httpTimeouts: { headersSeconds: number; requestSeconds: number; keepAliveSeconds: number };
  /** Bearer token GET /metrics requires (the same as metrics.token). */
  metricsToken?: string;
  /** Who may read GET /metrics: a token, a separate port, loopback in development, or nobody (config/metrics.ts). */
  metrics: MetricsAccess;
  /** Swagger UI at /api/docs (the OpenAPI document stays public either way). */
  apiDocsUi: boolean;
  /** /ready names the database kind; off in production unless asked for. */
  readyDetails: boolean;
  logLevel: Environment["LOG_LEVEL"];
  /** OpenTelemetry traces over OTLP: on when OpenTelemetry's own variables ask for them (tracing/hooks.ts). */
  tracing: boolean;
  /** preparedStatements: off only behind a pooler that cannot keep them (PgBouncer before 1.21 in transaction mode). */
  database: { url?: string; poolMax: number; dataDir: string; preparedStatements: boolean };
  /** Audit rows older than this many days are deleted by the periodic clean-up; 0 keeps them for ever. */
  auditRetentionDays: number;
  /** Sign-in history (audit/retention.ts, signInHistoryTypes) goes sooner than the rest; 0 leaves it to auditRetentionDays. */
  signInHistoryRetentionDays: number;
  /** People who left (privacy/leavers.ts) longer ago than this are anonymised by the clean-up; 0 never. */
  anonymiseLeftAfterDays: number;
  webDistDir?: string;
  /** The newest key of SESSION_SECRET: it signs cookies and encrypts from now on. */
  sessionSecret: string;
  /** Every key of SESSION_SECRET, newest first: each still verifies and decrypts (crypto/key-ring.ts). */
  sessionSecrets: readonly string[];
  sessions: { idleTimeoutSeconds: number; absoluteTimeoutSeconds: number };
  /** A sensitive change needs a sign-in at most this long ago. */
  reauthMaxAgeSeconds: number;
  loginGrantTtlSeconds: number;
  ticketTtlSeconds: number;
  /** CAS service and proxy tickets live this long (CAS_TICKET_TTL_SECONDS; Apereo CAS's 10 s by default). */
  casTicketTtlSeconds: number;
  bodyLimitBytes: number;
  /** Sessions one instance keeps answered in memory (sessions/cache.ts); 0 reads every request. */
  sessionCacheEntries: number;
  /** Requests one SCIM client (token) may make a minute on one instance. */
  scimRequestsPerMinute: number;
  /** A password a SCIM client pushes (Okta's "Sync password"): set, dropped (logged) or refused with 400. */
  scimPasswords: "set" | "ignore" | "refuse";
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  sandbox: boolean;
  seedDemoData: boolean;
  support: { email: string; botEmployeesUrl: string; botStudentsUrl: string };
  /** Sign-in with Google; present when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. */
  google?: GoogleConfig;
  /** Diia's partner API; present when DIIA_BASE_URL and DIIA_ACQUIRER_TOKEN are set. */
  diia?: DiiaConfig;
  /** Sign-in with BankID NBU; present when BANKID_BASE_URL is set (then all it needs must be). */
  bankId?: BankIdConfig;
  /** TLS_EXTRA_CA_FILE: CAs outbound TLS trusts beside Node's own (never a switch that turns checks off). */
  tlsExtraCaFile?: string;
  /** The SAML 2.0 identity provider's metadata contents and policies. */
  saml: SamlConfig;
  /** Outgoing mail (password reset links, security notices); absent without SMTP_URL. */
  mail?: MailConfig;
  /** How long a password reset link (or a Diia recovery) stays good. */
  passwordResetTtlSeconds: number;
  /** Who may register applications on /{lang}/developers, and how many each may own (DEVELOPER_*). */
  developers: { affiliations: Environment["DEVELOPER_AFFILIATIONS"]; maxApplications: number };
  /** How long a device's code (OAuth device authorization grant) waits for the person to confirm it. */
  deviceCodeTtlSeconds: number;
  /** Wi-Fi through FreeRADIUS: the rest endpoint's secret, the realm, VLANs (config/wifi.ts). */
  wifi: WifiConfig;
}

export interface MailConfig {
  /** smtp://user:pass@host:port (STARTTLS when offered) or smtps:// (TLS from the start). */
  smtpUrl: string;
  /** The From header: `KPI ID <no-reply@kpi.ua>`. */
  from: string;
}

function readMailConfig(environment: Environment, isProduction: boolean): MailConfig | undefined {
  if (isProduction && environment.MAIL_SANDBOX === true) {
    throw new ConfigError("MAIL_SANDBOX: the sandbox mail stand-in is refused when NODE_ENV=production");
  }
  if (environment.SMTP_URL === undefined) return undefined;
  return { smtpUrl: environment.SMTP_URL, from: environment.MAIL_FROM };
}

export interface GoogleConfig {
  /** The OpenID provider: Google's, or the sandbox stand-in's. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The university's Google Workspace domains. A Google account links itself to the person holding
   * its e-mail address only when both its `hd` claim and its address are in one of these; any other
   * account signs in only once linked explicitly (`user link-google`).
   */
  hostedDomains: string[];
}

function readGoogleConfig(environment: Environment): GoogleConfig | undefined {
  const { GOOGLE_ISSUER: issuer, GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret } = environment;
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (clientId === undefined) throw new ConfigError("GOOGLE_CLIENT_ID: is required when GOOGLE_CLIENT_SECRET is set");
  if (clientSecret === undefined)
    throw new ConfigError("GOOGLE_CLIENT_SECRET: is required when GOOGLE_CLIENT_ID is set");
  return { issuer, clientId, clientSecret, hostedDomains: environment.GOOGLE_HOSTED_DOMAINS };
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const variable = issue.path.join(".") || "environment";
  return `${variable}: ${issue.message}`;
}

/**
 * The addresses the service is served at or calls with secrets (the acquirer token, the client
 * secret, people's cookies). A loopback address never leaves the machine, so it may stay http.
 */
const addressesNeedingTls = ["PUBLIC_URL", "DIIA_BASE_URL", "GOOGLE_ISSUER"] as const satisfies (keyof Environment)[];

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Every configured address that must use TLS, with the variable that names it. */
function addressesToCheck(environment: Environment): [string, string][] {
  const single = addressesNeedingTls.flatMap((variable): [string, string][] => {
    const value = environment[variable];
    return value === undefined ? [] : [[variable, value]];
  });
  return [...single, ...bankIdAddresses(environment)];
}

/**
 * DIIA_CRLS mixes file paths and URLs. The qualified CAs publish their CRLs over plain http, and a CRL
 * carries no secret and is signed by its CA (checked before it counts), so http is allowed for them;
 * any other scheme is a mistake.
 */
function requireCrlUrlsFetchable(environment: Environment): void {
  for (const source of listOfCrlSources(environment.DIIA_CRLS)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !/^https?:\/\//i.test(source)) {
      throw new ConfigError("DIIA_CRLS: a URL must be http:// or https://");
    }
  }
  // OCSP answers are signed by the CA (or its delegated OCSP signer) like CRLs, and published over http.
  for (const responder of listOfCrlSources(environment.DIIA_OCSP)) {
    if (responder !== "aia" && !/^https?:\/\/[^/\s]+/i.test(responder)) {
      throw new ConfigError('DIIA_OCSP: each entry must be an http:// or https:// URL, or "aia"');
    }
  }
}

function requireTls(environment: Environment): void {
  for (const [variable, value] of addressesToCheck(environment)) {
    const url = new URL(value);
    if (url.protocol === "https:" || loopbackHosts.has(url.hostname)) continue;
    throw new ConfigError(`${variable}: must be an https:// address in production`);
  }
}

function readHttpTimeouts(environment: Environment): Config["httpTimeouts"] {
  const { HEADERS_TIMEOUT_SECONDS: headersSeconds, REQUEST_TIMEOUT_SECONDS: requestSeconds } = environment;
  // Node refuses a headers timeout longer than the whole request's.
  if (headersSeconds > requestSeconds) {
    throw new ConfigError("HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS");
  }
  return { headersSeconds, requestSeconds, keepAliveSeconds: environment.KEEP_ALIVE_TIMEOUT_SECONDS };
}

function readSamlConfigOrFail(environment: Environment, publicUrl: string, sessionSecrets: string[]): SamlConfig {
  // Pairwise ids that SPs know derive from the salt; were it taken from a rotating key they would change.
  if (sessionSecrets.length > 1 && environment.SAML_PAIRWISE_SALT === undefined) {
    throw new ConfigError(
      "SAML_PAIRWISE_SALT: must be set once SESSION_SECRET holds more than one key; with only the old key " +
        "configured, `npx kpi-id secrets pairwise-salt` prints the value that keeps SAML pairwise ids unchanged",
    );
  }
  const [sessionSecret = ""] = sessionSecrets;
  try {
    return readSamlConfig(environment, publicUrl, sessionSecret);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** Parses the environment once; throws ConfigError on the first bad value. */
/**
 * Where the data is (DATA_DIR, DATABASE_URL) and nothing else: backup and restore read only this, so a restore
 * into a new DATA_DIR does not generate a session secret there first (loadConfig does, outside production).
 */
export function loadStorageConfig(source: Record<string, string | undefined> = process.env): {
  dataDir: string;
  url?: string;
} {
  const parsed = environmentSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).safeParse(withSecretFiles(source));
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new ConfigError(first ? formatIssue(first) : "environment: invalid");
  }
  return { dataDir: resolve(parsed.data.DATA_DIR), url: parsed.data.DATABASE_URL };
}

/** SESSION_SECRET's (or SESSION_SECRET_FILE's) keys when set: a restore checks the backup against them. */
export function loadGivenSessionSecrets(
  source: Record<string, string | undefined> = process.env,
): [string, ...string[]] | undefined {
  const parsed = environmentSchema.pick({ SESSION_SECRET: true, NODE_ENV: true }).safeParse(withSecretFiles(source));
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new ConfigError(first ? formatIssue(first) : "environment: invalid");
  }
  return givenSessionSecrets(parsed.data);
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(withSecretFiles(source));
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new ConfigError(first ? formatIssue(first) : "environment: invalid");
  }
  const environment = parsed.data;
  const isProduction = environment.NODE_ENV === "production";
  const publicUrl = environment.PUBLIC_URL ?? `http://localhost:${environment.PORT}`;
  const dataDir = resolve(environment.DATA_DIR);

  if (isProduction && environment.PUBLIC_URL === undefined) {
    throw new ConfigError("PUBLIC_URL: is required in production (the address people open)");
  }
  if (isProduction) requireTls(environment);
  requireCrlUrlsFetchable(environment);
  if (isProduction && environment.SANDBOX === true) {
    throw new ConfigError("SANDBOX: sandbox mode is refused when NODE_ENV=production");
  }
  if (isProduction && environment.SEED_DEMO_DATA === true) {
    throw new ConfigError("SEED_DEMO_DATA: demo people are never seeded when NODE_ENV=production");
  }
  const sessionSecrets = resolveSessionSecrets(environment, dataDir);
  const [sessionSecret] = sessionSecrets;

  return {
    env: environment.NODE_ENV,
    isProduction,
    host: environment.HOST,
    port: environment.PORT,
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    trustProxy: parseTrustProxy(environment.TRUST_PROXY, isProduction),
    throttleIpv6PrefixLength: environment.THROTTLE_IPV6_PREFIX_LENGTH,
    httpTimeouts: readHttpTimeouts(environment),
    metricsToken: environment.METRICS_TOKEN,
    metrics: readMetricsAccess(environment, isProduction),
    apiDocsUi: environment.API_DOCS_UI ?? !isProduction,
    readyDetails: environment.READY_DETAILS ?? !isProduction,
    logLevel: environment.LOG_LEVEL,
    tracing: tracingWanted(source),
    database: {
      url: environment.DATABASE_URL,
      poolMax: environment.DATABASE_POOL_MAX,
      dataDir,
      preparedStatements: environment.DATABASE_PREPARED_STATEMENTS,
    },
    auditRetentionDays: environment.AUDIT_RETENTION_DAYS,
    signInHistoryRetentionDays: environment.SIGN_IN_HISTORY_RETENTION_DAYS,
    anonymiseLeftAfterDays: environment.ANONYMISE_LEFT_AFTER_DAYS,
    webDistDir: environment.WEB_DIST_DIR,
    sessionSecret,
    sessionSecrets,
    sessions: {
      idleTimeoutSeconds: environment.SESSION_IDLE_TIMEOUT_SECONDS,
      absoluteTimeoutSeconds: environment.SESSION_ABSOLUTE_TIMEOUT_SECONDS,
    },
    reauthMaxAgeSeconds: environment.REAUTH_MAX_AGE_SECONDS,
    loginGrantTtlSeconds: environment.LOGIN_GRANT_TTL_SECONDS,
    ticketTtlSeconds: environment.TICKET_TTL_SECONDS,
    casTicketTtlSeconds: environment.CAS_TICKET_TTL_SECONDS,
    bodyLimitBytes: environment.BODY_LIMIT_BYTES,
    scimRequestsPerMinute: environment.SCIM_REQUESTS_PER_MINUTE,
    scimPasswords: environment.SCIM_PASSWORDS,
    sessionCacheEntries: environment.SESSION_CACHE_ENTRIES,
    argon2: {
      memoryCost: environment.ARGON2_MEMORY_KIB,
      timeCost: environment.ARGON2_TIME_COST,
      parallelism: environment.ARGON2_PARALLELISM,
    },
    sandbox: !isProduction && (environment.SANDBOX ?? true),
    // Demo people have published passwords: only an explicit choice seeds them (npm start's sandbox sets it).
    seedDemoData: !isProduction && environment.SEED_DEMO_DATA === true,
    support: {
      email: environment.SUPPORT_EMAIL,
      botEmployeesUrl: environment.SUPPORT_BOT_EMPLOYEES_URL,
      botStudentsUrl: environment.SUPPORT_BOT_STUDENTS_URL,
    },
    google: readGoogleConfig(environment),
    diia: readDiiaConfig(environment),
    bankId: readBankIdConfig(environment),
    tlsExtraCaFile: environment.TLS_EXTRA_CA_FILE,
    saml: readSamlConfigOrFail(environment, publicUrl, sessionSecrets),
    mail: readMailConfig(environment, isProduction),
    passwordResetTtlSeconds: environment.PASSWORD_RESET_TTL_SECONDS,
    developers: {
      affiliations: environment.DEVELOPER_AFFILIATIONS,
      maxApplications: environment.DEVELOPER_MAX_APPLICATIONS,
    },
    deviceCodeTtlSeconds: environment.OIDC_DEVICE_CODE_TTL_SECONDS,
    wifi: readWifiConfig(environment, isProduction),
  };
}
