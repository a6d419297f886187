import type { FastifyInstance } from "fastify";
import { type LdapService, startLdapService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** LDAP's responder and directory sync, when LDAP_LDAPI_PATH is set (protocols/ldap/service.ts). */
    ldap?: LdapService;
  }
}

/**
 * Runs LDAP beside the web service when LDAP_LDAPI_PATH is set: slapd runs on the same host (deploy/openldap),
 * as FreeRADIUS does for eduroam, and each instance keeps its own slapd in step.
 */
export function registerLdap(app: FastifyInstance): void {
  if (!app.config.ldap.ldapiPath) return;
  app.decorate("ldap", undefined);
  app.addHook("onReady", async () => {
    app.ldap = await startLdapService({
      database: app.database,
      config: app.config,
      clock: app.clock,
      passwordHasher: app.passwordHasher,
      onBind: (event) => app.metrics?.observeAudit(event),
      onError: (error, what) => app.log.error({ err: error }, `ldap ${what} failed`),
    });
    // The first synchronisation is not waited for: slapd may start after KPI ID; it is retried until it works.
    app.ldap.syncNow().catch(() => {});
  });
  // Before the database closes (onClose): the responder may be answering a bind with it.
  app.addHook("preClose", async () => {
    await app.ldap?.close();
  });
}
