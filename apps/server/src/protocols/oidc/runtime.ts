import type { FastifyInstance } from "fastify";
import type Provider from "oidc-provider";
import { recordOidcFailures } from "../../model/developers/oidc-failures.ts";
import { ensureSigningKey, loadPublishedKeys } from "../../model/oidc/keys.ts";
import { type AuditEvent, recordAuditEvent } from "../../platform/audit/record.ts";
import { endKpiSessionOnLogout } from "./end-session.ts";
import { createProvider, signingKeyRetentionSeconds } from "./provider.ts";
import { logRefusals } from "./refusal-log.ts";
import { currentOidcMemory } from "./request-memory.ts";

// How often an instance looks for keys rotated by `kpi-id keys rotate` (or by another instance).
const keyCheckIntervalMs = 60_000;

/**
 * Holds the provider. Its key set is fixed at construction, so when the
 * published keys change the provider is rebuilt; everything else it keeps
 * lives in the database, so nothing is lost.
 */
export class OidcRuntime {
  provider: Provider;
  private keyFingerprint: string;
  private readonly app: FastifyInstance;
  private timer: NodeJS.Timeout | undefined;

  private constructor(app: FastifyInstance, provider: Provider, keyFingerprint: string) {
    this.app = app;
    this.provider = provider;
    this.keyFingerprint = keyFingerprint;
  }

  static async start(app: FastifyInstance): Promise<OidcRuntime> {
    await ensureSigningKey(app.db, app.config.sessionSecret, app.clock());
    const { provider, fingerprint } = await OidcRuntime.build(app);
    if (!provider) throw new Error("oidc: no provider built");
    const runtime = new OidcRuntime(app, provider, fingerprint);
    runtime.timer = setInterval(() => {
      runtime.refresh().catch((error: unknown) => app.log.error({ err: error }, "oidc: key refresh failed"));
    }, keyCheckIntervalMs);
    runtime.timer.unref();
    return runtime;
  }

  private static async build(app: FastifyInstance, unlessFingerprint?: string) {
    const keys = await loadPublishedKeys(app.db, app.config.sessionSecrets, signingKeyRetentionSeconds, app.clock());
    const fingerprint = keys.map((key) => key.kid).join(",");
    if (fingerprint === unlessFingerprint) return { fingerprint };
    const audit = async (event: AuditEvent) => {
      app.metrics?.observeAudit(event);
      const stamped = { ...event, occurredAt: app.clock() };
      // Inside a provider request the row goes with the request's other writes (request-memory.ts).
      if (currentOidcMemory()?.deferAudit(stamped)) return;
      await recordAuditEvent(app.db, stamped);
    };
    const caches = {
      applications: app.applicationCache,
      accounts: app.accountCache,
      accessTokens: app.accessTokenCache,
    };
    const provider = createProvider({ config: app.config, db: app.db, keys, clock: app.clock, audit, caches });
    // Last, after the provider's own end_session: the KPI ID session ends with it (end-session.ts).
    provider.use(endKpiSessionOnLogout(app, audit));
    // The provider answers its own 500s; they reach the log here.
    provider.on("server_error", (_ctx: unknown, error: unknown) => app.log.error({ err: error }, "oidc: server error"));
    logRefusals(provider, app.log);
    recordOidcFailures(provider, app.db);
    return { provider, fingerprint };
  }

  /** Picks up rotated keys. (Expired provider rows are swept by maintenance/cleanup.ts.) */
  async refresh(): Promise<void> {
    const { provider, fingerprint } = await OidcRuntime.build(this.app, this.keyFingerprint);
    if (!provider) return;
    this.provider = provider;
    this.keyFingerprint = fingerprint;
    this.app.log.info({ kids: fingerprint }, "oidc: signing keys reloaded");
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
