import { bankListFetchedAt } from "../../model/bankid/bank-list-age.ts";
import { checkSealedValues, type SealedCounts } from "../../model/housekeeping/reseal.ts";
import { activeOidcKeyIds } from "../../model/oidc/active-keys.ts";
import { activeSamlKeyIds } from "../../model/saml/certificates.ts";
import type { Config } from "../../platform/config/index.ts";
import { appliedMigrationVersions, databaseNow } from "../../platform/db/health.ts";
import { listMigrations } from "../../platform/db/migrate.ts";
import type { Db } from "../../platform/db/schema.ts";
import { certificateWarningDays, expiryState, watchedCertificates } from "./certificates.ts";

export type CheckStatus = "ok" | "warn" | "fail";

/** One line of `kpi-id doctor`: what was checked, how it stands, and what to do when it is not ok. */
export interface CheckResult {
  check: string;
  status: CheckStatus;
  message: string;
  fix?: string;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Stand-ins are refused in production by the configuration; this says which mode runs and what still points home. */
export function checkProductionMode(config: Config): CheckResult {
  if (!config.isProduction) {
    return {
      check: "production",
      status: "warn",
      message: `NODE_ENV is ${config.env}: sandbox stand-ins${config.sandbox ? " (on)" : ""} and demo data are allowed`,
      fix: "set NODE_ENV=production on a real deployment",
    };
  }
  const addresses: [string, string | undefined][] = [
    ["DIIA_BASE_URL", config.diia?.baseUrl],
    ["GOOGLE_ISSUER", config.google?.issuer],
    ["SMTP_URL", config.mail?.smtpUrl],
  ];
  const local = addresses.filter(([, value]) => value !== undefined && loopbackHosts.has(new URL(value).hostname));
  if (local.length > 0) {
    return {
      check: "production",
      status: "warn",
      message: `${local.map(([name]) => name).join(", ")} point at this machine (a stand-in, or a local relay?)`,
      fix: "point them at the real services, unless a local relay is meant",
    };
  }
  return {
    check: "production",
    status: "ok",
    message: "NODE_ENV=production; sandbox, demo data and mail stand-in off",
  };
}

/** Who may read /metrics: in production a token or a separate port, else it is off (a same-host proxy looks loopback). */
export function checkMetrics(config: Config): CheckResult {
  const { metrics } = config;
  if (metrics.off) {
    return {
      check: "metrics",
      status: "warn",
      message: "/metrics is off: production needs METRICS_TOKEN or METRICS_PORT to serve it",
      fix: "set METRICS_TOKEN (openssl rand -base64 48) for Prometheus' bearer token, or METRICS_PORT",
    };
  }
  const how = [
    metrics.token !== undefined ? "a bearer token (METRICS_TOKEN)" : undefined,
    metrics.port !== undefined ? `port ${metrics.port} on ${metrics.host} only (METRICS_PORT)` : undefined,
  ].filter((part) => part !== undefined);
  const message =
    how.length > 0 ? `/metrics needs ${how.join(" and ")}` : "/metrics answers loopback clients (development)";
  return { check: "metrics", status: "ok", message };
}

/** Applied migrations against the ones this release carries: pending ones are applied at start or by `migrate`. */
export async function checkMigrations(db: Db): Promise<CheckResult> {
  const known = listMigrations().map((migration) => migration.version);
  const rows = await appliedMigrationVersions(db);
  if (!rows) {
    return {
      check: "migrations",
      status: "fail",
      message: "no migration was ever applied (no schema_migrations table)",
      fix: "npx kpi-id migrate",
    };
  }
  const applied = new Set(rows.rows.map((row) => Number(row.version)));
  const pending = known.filter((version) => !applied.has(version));
  const newer = [...applied].filter((version) => !known.includes(version));
  if (pending.length > 0) {
    return {
      check: "migrations",
      status: "fail",
      message: `${pending.length} pending (${pending.map((version) => String(version).padStart(4, "0")).join(", ")})`,
      fix: "npx kpi-id migrate (the server also applies them at start)",
    };
  }
  if (newer.length > 0) {
    return {
      check: "migrations",
      status: "warn",
      message: `the database has ${newer.length} migration(s) this release does not know: a newer release migrated it`,
      fix: "run the release that migrated it, or read its upgrade notes before rolling back",
    };
  }
  return { check: "migrations", status: "ok", message: `all ${known.length} applied` };
}

const countsText = (counts: SealedCounts) =>
  `${counts.totpFactors} authenticator-app secrets, ${counts.oidcSigningKeys} OpenID Connect and ${counts.samlSigningKeys} SAML keys, ${counts.wifiPasswords} Wi-Fi network passwords`;

/** Signing keys present, and every sealed value opened by SESSION_SECRET's newest key. */
export async function checkKeys(db: Db, config: Config): Promise<CheckResult> {
  const report = await checkSealedValues(db, config.sessionSecrets);
  const unreadable = Object.values(report.unreadable).reduce((sum, count) => sum + count, 0);
  if (unreadable > 0) {
    return {
      check: "keys",
      status: "fail",
      message: `no key of SESSION_SECRET opens ${countsText(report.unreadable)}`,
      fix: "put back the SESSION_SECRET key they were sealed with (docs/operations.md, Rotating SESSION_SECRET)",
    };
  }
  const older = Object.values(report.olderKey).reduce((sum, count) => sum + count, 0);
  if (older > 0) {
    return {
      check: "keys",
      status: "warn",
      message: `${countsText(report.olderKey)} still sealed or keyed with an older key of SESSION_SECRET`,
      fix: "npx kpi-id secrets reseal, before removing the older key",
    };
  }
  const oidc = await activeOidcKeyIds(db);
  const saml = await activeSamlKeyIds(db);
  if (oidc.length === 0) {
    return {
      check: "keys",
      status: "warn",
      message: "no OpenID Connect signing key yet",
      fix: "start the server once: it makes the first key",
    };
  }
  const ring = config.sessionSecrets.length;
  return {
    check: "keys",
    status: "ok",
    message: `${oidc.length} OpenID Connect and ${saml.length} SAML signing key(s), readable; SESSION_SECRET holds ${ring} key(s)`,
  };
}

/** Expired certificates fail; those within the warning period warn, each named with its date. */
export async function checkCertificates(db: Db, config: Config, now: Date): Promise<CheckResult[]> {
  const { certificates, unreadable } = await watchedCertificates({ db, config });
  const results: CheckResult[] = unreadable.map(({ source, problem }) => ({
    check: "certificates",
    status: "fail",
    message: `${source}: cannot be read (${problem})`,
    fix: "fix the setting or file that names it",
  }));
  for (const certificate of certificates) {
    const state = expiryState(certificate.notAfter, now);
    if (state === "valid") continue;
    const date = certificate.notAfter.toISOString().slice(0, 10);
    results.push({
      check: "certificates",
      status: state === "expired" ? "fail" : "warn",
      message: `${certificate.source} (${certificate.subject}) ${state === "expired" ? "expired" : "expires"} on ${date}`,
      fix: "renew or roll it over (docs/operations.md, Certificates)",
    });
  }
  if (results.length === 0) {
    const soonest = certificates.map((each) => each.notAfter).sort((a, b) => a.getTime() - b.getTime())[0];
    results.push({
      check: "certificates",
      status: "ok",
      message:
        certificates.length === 0
          ? "none configured yet"
          : `${certificates.length} valid for more than ${certificateWarningDays} days (the first ends ${soonest?.toISOString().slice(0, 10)})`,
    });
  }
  return results;
}

/** This machine's clock against the database's: tokens, TOTP codes and SAML assertions all carry times. */
export async function checkClock(db: Db): Promise<CheckResult> {
  const before = Date.now();
  const databaseClock = await databaseNow(db);
  const after = Date.now();
  const databaseTime = new Date(databaseClock ?? after).getTime();
  const skewSeconds = Math.round(Math.abs(databaseTime - (before + after) / 2) / 1000);
  if (skewSeconds > 5) {
    return {
      check: "clock",
      status: skewSeconds > 60 ? "fail" : "warn",
      message: `this machine and the database disagree by ${skewSeconds} s`,
      fix: "run NTP (chrony, systemd-timesyncd) on both machines",
    };
  }
  return { check: "clock", status: "ok", message: "agrees with the database's within 5 s" };
}

/** Older than this, the kept bank list is reported: NBU's node has not given one for that long. */
const bankListWarnHours = 24;

/** BankID's last good bank list (0520), which sign-in falls back on when NBU's /api/banks fails. */
export async function checkBankList(db: Db, config: Config, now: Date): Promise<CheckResult | undefined> {
  if (!config.bankId) return undefined;
  const row = await bankListFetchedAt(db);
  const fix = "check NBU's node with `npx kpi-id bankid status` (its /api/banks)";
  if (!row) {
    return {
      check: "bankid banks",
      status: "warn",
      message: "no bank list kept yet: if NBU's /api/banks fails now, every BankID sign-in fails",
      fix,
    };
  }
  const hours = Math.floor((now.getTime() - new Date(row.fetched_at).getTime()) / 3_600_000);
  if (hours >= bankListWarnHours) {
    return {
      check: "bankid banks",
      status: "warn",
      message: `the kept bank list is ${hours} h old: NBU's /api/banks has not answered (or no one signed in) since`,
      fix,
    };
  }
  return { check: "bankid banks", status: "ok", message: `kept from ${new Date(row.fetched_at).toISOString()}` };
}
