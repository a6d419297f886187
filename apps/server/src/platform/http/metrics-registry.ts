import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AuditEvent } from "../audit/record.ts";
import { checkLineMetrics, type WatchCheckLine } from "./check-line-metrics.ts";
import { type PasswordSignInMetrics, passwordCheckMetrics } from "./password-check-metrics.ts";

/** The service's Prometheus metrics; one registry per app so tests and several apps in a process never mix. */
export interface ServiceMetrics {
  registry: Registry;
  requestDuration: Histogram<"method" | "route" | "status_code">;
  /** Counts what the audit trail records: sign-ins, throttled attempts, ticket exchanges. */
  observeAudit(event: Pick<AuditEvent, "type" | "result" | "authMethod" | "reason">): void;
  passwordSignIn: PasswordSignInMetrics;
  /** Counts a line of DSTU checks in a worker thread (Diia's, BankID's): check-line-metrics.ts. */
  watchCheckLine: WatchCheckLine;
}

// Sign-in answers sit between 10 ms (a throttled refusal) and a second (argon2id under load).
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function databaseGauges(app: FastifyInstance, registry: Registry, sources: GaugeSources): void {
  new Gauge({
    name: "kpi_id_db_pool_connections",
    help: "Database pool connections by state (total, idle, waiting = requests queued for a connection)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const stats = app.database.poolStats();
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  new Gauge({
    name: "kpi_id_diia_pending_requests",
    help: "Diia sign-in requests waiting for the phone (Processing and not expired); read from the database on scrape",
    registers: [registry],
    async collect() {
      try {
        this.set(await sources.pendingDiiaRequests());
      } catch {
        // A scrape while the database is away still answers; kpi_id_database_up says why this is stale.
      }
    },
  });
  new Gauge({
    name: "kpi_id_session_cache_entries",
    help: "Sessions this instance keeps answered in memory for GET /user and the page",
    registers: [registry],
    collect() {
      this.set(app.sessionCache.size);
    },
  });
  new Gauge({
    name: "kpi_id_memory_cache_entries",
    help: "Applications (by id), OpenID Connect accounts and access tokens this instance keeps in memory, on the same change feed",
    labelNames: ["cache"],
    registers: [registry],
    collect() {
      this.set({ cache: "applications" }, app.applicationCache.size);
      this.set({ cache: "oidc_accounts" }, app.accountCache.size);
      this.set({ cache: "oidc_access_tokens" }, app.accessTokenCache.size);
    },
  });
  new Gauge({
    name: "kpi_id_session_cache_hearing",
    help: "1 while this instance hears its own heartbeat on the database's change channel (its cache may serve), 0 when off, lost or deaf",
    registers: [registry],
    collect() {
      this.set(app.sessionCache.isHearing ? 1 : 0);
    },
  });
  new Gauge({
    name: "kpi_id_database_up",
    help: "1 when the database answered a ping at this scrape, 0 when it did not",
    registers: [registry],
    async collect() {
      this.set((await app.database.ping()) ? 1 : 0);
    },
  });
}

/** The certificates a deployment depends on and when each stops being valid (doctor/certificates.ts). */
export type CertificateSource = () => Promise<readonly { source: string; notAfter: Date }[]>;

/** What the gauges read from the layers above the platform, handed in by app.ts (issue 58: no SQL here). */
export interface GaugeSources {
  certificates: CertificateSource;
  /** Diia requests waiting for the phone (model/diia). */
  pendingDiiaRequests: () => Promise<number>;
}

/** Seconds until each watched certificate ends, for an alert at 30 days. */
function certificateGauge(app: FastifyInstance, registry: Registry, watched: CertificateSource): void {
  new Gauge({
    name: "kpi_id_certificate_expiry_seconds",
    help: "Seconds until each certificate KPI ID depends on stops being valid (negative: expired); alert below 30 days",
    labelNames: ["certificate"],
    registers: [registry],
    async collect() {
      this.reset();
      const certificates = await watched();
      const now = app.clock().getTime();
      for (const { source, notAfter } of certificates) {
        this.set({ certificate: source }, Math.round((notAfter.getTime() - now) / 1000));
      }
    },
  });
}

export function createServiceMetrics(app: FastifyInstance, sources: GaugeSources): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "kpi_id_" });
  const requestDuration = new Histogram({
    name: "kpi_id_http_request_duration_seconds",
    help: "HTTP request latency by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"],
    buckets: latencyBuckets,
    registers: [registry],
  });
  const signIns = new Counter({
    name: "kpi_id_sign_ins_total",
    help: "Credential checks by method (PASSWORD, GOOGLE, DIIA, BANK_ID, PASSKEY) and result (success, failure)",
    labelNames: ["method", "result"],
    registers: [registry],
  });
  const throttled = new Counter({
    name: "kpi_id_throttled_attempts_total",
    help: "Sign-in attempts refused without a check because the account or address must wait",
    labelNames: ["method"],
    registers: [registry],
  });
  const ticketExchanges = new Counter({
    name: "kpi_id_ticket_exchanges_total",
    help: "Ticket redemptions by applications' servers, by result",
    labelNames: ["result"],
    registers: [registry],
  });
  const wifiSignIns = new Counter({
    name: "kpi_id_wifi_authentications_total",
    help: "Wi-Fi (eduroam) decisions answered to FreeRADIUS, by result and refusal reason (wrong_password, throttled, …)",
    labelNames: ["result", "reason"],
    registers: [registry],
  });
  const wifiDisconnects = new Counter({
    name: "kpi_id_wifi_disconnects_total",
    help: "Disconnect-Requests sent for Wi-Fi sessions whose access ended, by result and the failure (nak, no_reply, …)",
    labelNames: ["result", "reason"],
    registers: [registry],
  });
  const ldapBinds = new Counter({
    name: "kpi_id_ldap_binds_total",
    help: "LDAP binds slapd asked KPI ID about, by result and refusal reason (wrong_password, no_access, …)",
    labelNames: ["result", "reason"],
    registers: [registry],
  });
  databaseGauges(app, registry, sources);
  certificateGauge(app, registry, sources.certificates);
  const passwordSignIn = passwordCheckMetrics(app.passwordHasher, registry);
  const watchCheckLine = checkLineMetrics(registry);

  return {
    registry,
    requestDuration,
    passwordSignIn,
    watchCheckLine,
    observeAudit(event) {
      const method = event.authMethod ?? "unknown";
      if (event.type === "sign_in") signIns.inc({ method, result: event.result });
      if (event.type === "sign_in" && event.reason === "auth.too_many_attempts") throttled.inc({ method });
      if (event.type === "ticket_exchange") ticketExchanges.inc({ result: event.result });
      if (event.type === "wifi_sign_in") wifiSignIns.inc({ result: event.result, reason: event.reason ?? "" });
      if (event.type === "wifi_disconnect") wifiDisconnects.inc({ result: event.result, reason: event.reason ?? "" });
      if (event.type === "ldap_bind") ldapBinds.inc({ result: event.result, reason: event.reason ?? "" });
    },
  };
}
