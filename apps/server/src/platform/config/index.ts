import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { tracingWanted } from "../tracing/hooks.ts";
import { type BankIdConfig, readBankIdConfig } from "./bankid.ts";
import { type DiiaConfig, readDiiaConfig } from "./diia.ts";
import { ConfigError } from "./error.ts";
import { type GoogleConfig, readGoogleConfig } from "./google.ts";
import { type GuestsConfig, readGuestsConfig } from "./guests.ts";
import { type LdapConfig, readLdapConfig } from "./ldap.ts";
import { type MailConfig, readMailConfig } from "./mail.ts";
import { type MetricsAccess, readMetricsAccess } from "./metrics.ts";
import { parseEnvironment } from "./parse.ts";
import { readSamlConfig, type SamlConfig } from "./saml.ts";
import { type Environment, environmentSchema } from "./schema.ts";
import { resolveSessionSecrets } from "./secrets.ts";
import { requireCrlUrlsFetchable, requireTls } from "./tls.ts";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.ts";
import { readWifiConfig, type WifiConfig } from "./wifi.ts";

export type { BankIdConfig } from "./bankid.ts";
export type { DiiaBranchAddress, DiiaConfig } from "./diia.ts";
export { ConfigError } from "./error.ts";
export type { GoogleConfig } from "./google.ts";
export type { GuestsConfig } from "./guests.ts";
export type { LdapConfig } from "./ldap.ts";
export type { MailConfig } from "./mail.ts";
export type { MetricsAccess } from "./metrics.ts";
export type { Environment } from "./schema.ts";
export { loadGivenSessionSecrets, loadStorageConfig } from "./storage.ts";
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
  /** The bounded line of argon2id checks (crypto/check-queue.ts): how many run, wait, and how long. */
  passwordChecks: { concurrency: number; maxWaiting: number; maxWaitMs: number };
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
  /** LDAP through OpenLDAP slapd: the directory's socket and base, the bind responder's socket (config/ldap.ts). */
  ldap: LdapConfig;
  /** Sponsored guests: the longest stay, who sponsors, the limits, the retention (config/guests.ts). */
  guests: GuestsConfig;
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
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const environment = parseEnvironment(environmentSchema(), source);
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
    passwordChecks: {
      // As many at once as the instance has cores, and never all of libuv's 4 threads: the pool's other users
      // (WebCrypto's signatures, zlib, the file system) keep one.
      concurrency: environment.PASSWORD_CHECKS_PARALLEL ?? Math.max(1, Math.min(3, availableParallelism())),
      maxWaiting: environment.PASSWORD_CHECKS_WAITING,
      maxWaitMs: environment.PASSWORD_CHECK_WAIT_MS,
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
    ldap: readLdapConfig(environment),
    guests: readGuestsConfig(environment),
  };
}
