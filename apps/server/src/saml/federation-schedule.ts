import { readFile } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { refreshFederations } from "./federation.ts";

/** Every SAML_FEDERATION_REFRESH_SECONDS (and once at start), the federations' aggregates are read again. */
export function scheduleFederationRefresh(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  const runOnce = async () => {
    try {
      const failures = await refreshFederations(app.db, {
        now: app.clock(),
        readFile: (path) => readFile(path, "utf8"),
      });
      for (const { name, error } of failures)
        app.log.warn({ federation: name, err: error }, "federation metadata refused; its SPs stay until validUntil");
    } catch (error) {
      app.log.warn({ err: error }, "federation refresh failed; the next run tries again");
    }
  };
  app.addHook("onReady", async () => {
    timer = setInterval(runOnce, app.config.saml.federationRefreshSeconds * 1000);
    // The refresh never keeps the process alive on its own.
    timer.unref();
    void runOnce();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}
