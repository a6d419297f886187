import { readFile } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { refreshFederations, saveFederation } from "./federation.ts";

/**
 * The federation the environment names (SAML_FEDERATION_*) is saved at start, beside those
 * the CLI added; then every SAML_FEDERATION_REFRESH_SECONDS (and once at start) the
 * federations' aggregates are read again, by one instance at a time.
 */
export function scheduleFederationRefresh(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  const runOnce = async () => {
    try {
      const failures = await refreshFederations(app.db, {
        now: app.clock(),
        readFile: (path) => readFile(path, "utf8"),
        allowLoopbackHttp: !app.config.isProduction,
      });
      if (!failures) app.log.debug("federation refresh skipped: another instance is doing it");
      for (const { name, error } of failures ?? [])
        app.log.warn({ federation: name, err: error }, "federation metadata refused; its SPs stay until validUntil");
    } catch (error) {
      app.log.warn({ err: error }, "federation refresh failed; the next run tries again");
    }
  };
  app.addHook("onReady", async () => {
    const configured = app.config.saml.federation;
    if (configured) await saveFederation(app.db, configured);
    timer = setInterval(runOnce, app.config.saml.federationRefreshSeconds * 1000);
    // The refresh never keeps the process alive on its own.
    timer.unref();
    // The configured federation's SPs are there before the server answers its first request.
    if (configured) await runOnce();
    else void runOnce();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}
