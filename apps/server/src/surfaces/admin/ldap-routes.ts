import {
  adminActionResultSchema,
  adminLdapClientsSchema,
  errorBodySchema,
  ldapClientNameParamsSchema,
  registeredLdapClientSchema,
  registerLdapClientSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { findApplicationById } from "../../model/apps/queries.ts";
import { ldapClientActivity } from "../../model/ldap/activity.ts";
import { type LdapClient, listLdapClients, registerLdapClient, removeLdapClient } from "../../model/ldap/clients.ts";
import { AppError } from "../../platform/errors.ts";
import { auditByOperator, guardConsoleRoutes } from "./plugin.ts";

const tags = ["admin"];
const refusals = { 401: errorBodySchema, 403: errorBodySchema };

/** The console's LDAP clients (docs/ldap.md): listed with their binds, registered and removed as `ldap client …`. */
export const adminLdapRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);
  const bindDnOf = (client: Pick<LdapClient, "name">) => `cn=${client.name},ou=clients,${app.config.ldap.baseDn}`;

  app.get(
    "/api/admin/ldap/clients",
    {
      config: { permission: "ldap.manage", subject: "university" },
      schema: {
        tags,
        summary: "Registered LDAP clients with their binds and failures (last 14 days)",
        response: { 200: adminLdapClientsSchema, ...refusals },
      },
    },
    async () => {
      const clients = await listLdapClients(app.db);
      const activity = await ldapClientActivity(app.db, app.clock());
      const titles = new Map<string, string>();
      for (const id of new Set(clients.flatMap((client) => client.applicationId ?? []))) {
        const application = await findApplicationById(app.db, id);
        if (application) titles.set(id, application.title);
      }
      return {
        configured: app.config.ldap.ldapiPath !== undefined,
        clients: clients.map((client) => {
          const binds = activity.get(client.id);
          return {
            id: client.id,
            name: client.name,
            title: client.title,
            bindDn: bindDnOf(client),
            application: client.applicationId
              ? { id: client.applicationId, title: titles.get(client.applicationId) ?? "" }
              : null,
            subtree: client.subtree,
            attributes: client.attributes,
            addresses: client.addresses,
            kpiPasswordAllowed: client.kpiPasswordAllowed,
            createdAt: client.createdAt.toISOString(),
            binds: {
              accepted: binds?.accepted ?? 0,
              refused: binds?.refused ?? 0,
              lastAt: binds?.lastAt?.toISOString() ?? null,
            },
            failures: (binds?.failures ?? []).map((failure) => ({ ...failure, at: failure.at.toISOString() })),
          };
        }),
      };
    },
  );

  app.post(
    "/api/admin/ldap/clients",
    {
      config: { permission: "ldap.manage", subject: "university" },
      schema: {
        tags,
        summary: "Register an LDAP client",
        description:
          "Its service account's secret is answered once (only its SHA-256 is kept). 409 `ldap.client_taken` for a " +
          "name in use; 400 `ldap.client_invalid` for an unknown application, an address that is not an IP, or the " +
          "KPI ID password allowed without the addresses binds come from.",
        body: registerLdapClientSchema,
        response: { 200: registeredLdapClientSchema, 400: errorBodySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const { applicationId } = request.body;
      if (applicationId !== null && !(await findApplicationById(app.db, applicationId))) {
        throw new AppError("ldap.client_invalid");
      }
      const { client, secret } = await registerLdapClient(app.db, request.body, app.clock());
      await auditByOperator(request, {
        type: "ldap_client_registered",
        result: "success",
        applicationId,
        details: { name: client.name, kpiPasswordAllowed: client.kpiPasswordAllowed },
      });
      return { name: client.name, bindDn: bindDnOf(client), secret };
    },
  );

  app.post(
    "/api/admin/ldap/clients/:name/remove",
    {
      config: { permission: "ldap.manage", subject: "university" },
      schema: {
        tags,
        summary: "Remove an LDAP client",
        description: "Its service account stops binding at once, and its access rules leave slapd at the next sync.",
        params: ldapClientNameParamsSchema,
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      await removeLdapClient(app.db, request.params.name);
      await auditByOperator(request, {
        type: "ldap_client_removed",
        result: "success",
        details: { name: request.params.name },
      });
      return { done: true };
    },
  );
};
