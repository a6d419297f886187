import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const httpUrl = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ""));

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value));

/** A comma-separated list, each item trimmed; blanks dropped. */
const commaList = (fallback = "") =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(",")
        .map((each) => each.trim())
        .filter((each) => each !== ""),
    );

const domainName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A VLAN as Tunnel-Private-Group-Id carries it: a number (1–4094) or a controller's VLAN name. */
const vlanName = /^[A-Za-z0-9_.-]{1,32}$/;

/** A comma-separated list of domain names, lower-cased; empty means none. */
const domainList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((each) => each.trim().toLowerCase())
      .filter((each) => each !== ""),
  )
  .pipe(z.array(z.string().regex(domainName, "must be a comma-separated list of domain names")));

/**
 * Every setting of the service, read from the environment once at start-up.
 * `.env.example` documents each of them; keep the two in step.
 * Made on each call, not kept: the schema of a hundred settings held 0.5 MiB of zod objects for the life of the
 * process, which reads the environment only while it starts (issue 63's idle memory).
 */
export const environmentSchema = () =>
  z.object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: httpUrl.optional(),
    TRUST_PROXY: optionalText,
    THROTTLE_IPV6_PREFIX_LENGTH: z.coerce.number().int().min(32).max(128).default(64),
    HEADERS_TIMEOUT_SECONDS: seconds(10),
    REQUEST_TIMEOUT_SECONDS: seconds(30),
    KEEP_ALIVE_TIMEOUT_SECONDS: seconds(72),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

    DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    DATABASE_PREPARED_STATEMENTS: booleanFlag.default(true),
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(1095),
    SIGN_IN_HISTORY_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(365),
    ANONYMISE_LEFT_AFTER_DAYS: z.coerce.number().int().min(0).max(36_500).default(730),
    SCIM_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
    SCIM_PASSWORDS: z.enum(["set", "ignore", "refuse"]).default("set"),
    DATA_DIR: z.string().min(1).default("./data"),
    WEB_DIST_DIR: optionalText,

    SESSION_SECRET: optionalText,
    SESSION_IDLE_TIMEOUT_SECONDS: seconds(60 * 60 * 2),
    SESSION_ABSOLUTE_TIMEOUT_SECONDS: seconds(60 * 60 * 12),
    SESSION_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(5000),
    REAUTH_MAX_AGE_SECONDS: seconds(60 * 10),
    LOGIN_GRANT_TTL_SECONDS: seconds(60),
    TICKET_TTL_SECONDS: seconds(60),
    CAS_TICKET_TTL_SECONDS: seconds(10),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(64 * 1024),

    ARGON2_MEMORY_KIB: z.coerce.number().int().min(19456).default(19456),
    ARGON2_TIME_COST: z.coerce.number().int().min(2).default(2),
    ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),
    PASSWORD_CHECKS_PARALLEL: z.coerce.number().int().min(1).max(64).optional(),
    PASSWORD_CHECKS_WAITING: z.coerce.number().int().min(0).max(100_000).default(200),
    PASSWORD_CHECK_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),

    SANDBOX: booleanFlag.optional(),
    SEED_DEMO_DATA: booleanFlag.optional(),

    DIIA_BASE_URL: httpUrl.optional(),
    DIIA_ACQUIRER_TOKEN: optionalText,
    DIIA_AUTH_ACQUIRER_TOKEN: optionalText,
    DIIA_BRANCH_ID: optionalText,
    DIIA_OFFER_ID: optionalText,
    // The branch's postal address, sent by `diia setup` (Diia's SDK models bound each field's length).
    DIIA_BRANCH_REGION: z.string().trim().min(4).max(100).default("м. Київ"),
    DIIA_BRANCH_DISTRICT: z.string().trim().min(4).max(100).default("Солом'янський р-н"),
    DIIA_BRANCH_LOCATION: z.string().trim().min(2).max(100).default("м. Київ"),
    DIIA_BRANCH_STREET: z.string().trim().min(4).max(100).default("просп. Берестейський"),
    DIIA_BRANCH_HOUSE: z.string().trim().min(1).max(20).default("37"),
    DIIA_TRUST_ANCHORS: optionalText,
    DIIA_INTERMEDIATE_CAS: optionalText,
    DIIA_SIGNER_CERTIFICATES: optionalText,
    DIIA_SIGN_ALGO: z.string().trim().default("DSTU"),
    DIIA_CRLS: optionalText,
    DIIA_CRL_GRACE_SECONDS: seconds(86400),
    DIIA_OCSP: optionalText,
    DIIA_REQUEST_TTL_SECONDS: seconds(180),

    BANKID_BASE_URL: httpUrl.optional(),
    BANKID_CLIENT_ID: optionalText,
    BANKID_CLIENT_SECRET: optionalText,
    BANKID_KEY: optionalText,
    BANKID_KEY_CONTAINER: optionalText,
    BANKID_KEY_PASSWORD: optionalText,
    BANKID_CERTIFICATE: optionalText,
    BANKID_TRUST_ANCHORS: optionalText,
    BANKID_INTERMEDIATE_CAS: optionalText,
    BANKID_CRLS: optionalText,
    BANKID_CRL_GRACE_SECONDS: seconds(86400),
    BANKID_VERSION: z.enum(["v1", "v2"]).default("v1"),
    BANKID_DATASET: optionalText.pipe(
      z
        .string()
        .regex(/^\d{1,4}$/, "must be the dataset number agreed with NBU")
        .optional(),
    ),
    BANKID_BANK_PICKER: booleanFlag.optional(),
    BANKID_SEND_REDIRECT_URI: booleanFlag.optional(),
    BANKID_BANKS_CACHE_SECONDS: seconds(300),
    /** A PEM file of CAs outbound TLS trusts beside Node's own (platform/http/outbound-trust.ts). */
    TLS_EXTRA_CA_FILE: optionalText,

    GOOGLE_ISSUER: httpUrl.default("https://accounts.google.com"),
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    GOOGLE_HOSTED_DOMAINS: domainList,

    METRICS_TOKEN: optionalText,
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().default("127.0.0.1"),
    API_DOCS_UI: booleanFlag.optional(),
    READY_DETAILS: booleanFlag.optional(),

    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    MAIL_FROM: z.string().min(3).default("KPI ID <no-reply@kpi.ua>"),
    MAIL_SANDBOX: booleanFlag.optional(),
    PASSWORD_RESET_TTL_SECONDS: seconds(30 * 60),
    OIDC_DEVICE_CODE_TTL_SECONDS: seconds(10 * 60),

    DEVELOPER_AFFILIATIONS: commaList("student,employee").pipe(
      z.array(z.enum(["student", "employee", "faculty", "staff", "member", "alum"])),
    ),
    DEVELOPER_MAX_APPLICATIONS: z.coerce.number().int().min(0).max(1000).default(5),

    SAML_SCOPE: z
      .string()
      .regex(/^[a-z0-9.-]+$/)
      .default("kpi.ua"),
    SAML_DISPLAY_NAME_UK: z.string().min(1).default("КПІ ім. Ігоря Сікорського"),
    SAML_DISPLAY_NAME_EN: z.string().min(1).default("Igor Sikorsky Kyiv Polytechnic Institute"),
    SAML_DESCRIPTION_UK: z.string().min(1).default("Єдиний вхід KPI ID"),
    SAML_DESCRIPTION_EN: z.string().min(1).default("KPI ID single sign-on"),
    SAML_INFORMATION_URL: httpUrl.optional(),
    SAML_PRIVACY_URL: httpUrl.optional(),
    SAML_LOGO_URL: httpUrl.optional(),
    SAML_SECURITY_CONTACT_EMAIL: z.email().optional(),
    SAML_SIRTFI: booleanFlag.optional(),
    SAML_RESEARCH_AND_SCHOLARSHIP: booleanFlag.optional(),
    SAML_METADATA_KEY_FILE: optionalText,
    SAML_METADATA_CERT_FILE: optionalText,
    SAML_METADATA_VALID_DAYS: z.coerce.number().int().min(1).max(365).default(14),
    SAML_PAIRWISE_SALT: optionalText,
    SAML_FEDERATION_REFRESH_SECONDS: seconds(60 * 60 * 4),
    SAML_FEDERATION_NAME: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9-]{1,40}$/)
        .optional(),
    ),
    SAML_FEDERATION_METADATA: optionalText,
    SAML_FEDERATION_CERTIFICATE_FILE: optionalText,
    SAML_FEDERATION_ENTITY_CATEGORIES: optionalText,
    // Researchers from other universities (issue 78, docs/visitors.md): the federations and institutions they may
    // sign in from, as comma lists; no federation: the "Sign in with your institution" button is not shown.
    SAML_VISITOR_FEDERATIONS: commaList(),
    SAML_VISITOR_INSTITUTIONS: commaList(),

    // Wi-Fi through FreeRADIUS (config/wifi.ts, docs/eduroam.md).
    RADIUS_REST_SECRET: optionalText,
    RADIUS_COA_SECRET: optionalText,
    RADIUS_COA_SERVER: z
      .string()
      .regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|[a-zA-Z0-9.-]+):\d{1,5}$/, "must be host:port")
      .default("127.0.0.1:3799"),
    WIFI_REALM: z.string().regex(domainName, "must be a domain name").default("kpi.ua"),
    WIFI_OPERATOR_NAME: optionalText,
    WIFI_SSID: z.string().min(1).max(32).default("eduroam"),
    WIFI_VLAN_STUDENTS: optionalText.pipe(z.string().regex(vlanName, "must be a VLAN id or name").optional()),
    WIFI_VLAN_STAFF: optionalText.pipe(z.string().regex(vlanName, "must be a VLAN id or name").optional()),
    WIFI_VLAN_GUESTS: optionalText.pipe(z.string().regex(vlanName, "must be a VLAN id or name").optional()),

    // LDAP through OpenLDAP slapd (config/ldap.ts, docs/ldap.md).
    LDAP_LDAPI_PATH: optionalText,
    LDAP_BIND_SOCKET: z.string().min(1).default("/run/kpi-id/ldap-bind.sock"),
    LDAP_BASE_DN: z
      .string()
      .regex(/^dc=[a-z0-9-]+(,dc=[a-z0-9-]+)*$/, "must be dc=…,dc=… in lower case")
      .default("dc=kpi,dc=ua"),
    LDAP_SCOPE: z.string().regex(domainName, "must be a domain name").default("kpi.ua"),
    LDAP_RESYNC_SECONDS: seconds(300),

    // Sponsored guests (config/guests.ts, docs/visitors.md).
    GUEST_MAX_DAYS: z.coerce.number().int().min(1).max(366).default(365),
    GUEST_SPONSOR_UNITS: commaList(),
    GUEST_LIMIT_PER_SPONSOR: z.coerce.number().int().min(0).max(10_000).default(20),
    GUEST_LIMIT_PER_UNIT: z.coerce.number().int().min(0).max(1_000_000).default(500),
    GUEST_INVITATIONS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(10),
    GUEST_INVITATION_DAYS: z.coerce.number().int().min(1).max(30).default(7),
    GUEST_ERASE_AFTER_DAYS: z.coerce.number().int().min(0).max(3650).default(90),

    SUPPORT_EMAIL: z.email().default("support@kpi.ua"),
    SUPPORT_BOT_EMPLOYEES_URL: httpUrl.default("https://t.me/kpi_id_employees_bot"),
    SUPPORT_BOT_STUDENTS_URL: httpUrl.default("https://t.me/kpi_id_students_bot"),
  });

export type Environment = z.infer<ReturnType<typeof environmentSchema>>;
