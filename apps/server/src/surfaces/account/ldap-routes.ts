import {
  createdLdapPasswordSchema,
  createLdapPasswordSchema,
  errorBodySchema,
  ldapPasswordLimit,
  ldapPasswordsSchema,
} from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ldapClientsFor } from "../../model/ldap/clients.ts";
import {
  createApplicationPassword,
  listApplicationPasswords,
  revokeApplicationPassword,
} from "../../model/ldap/passwords.ts";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["account"];
const idParams = z.object({ id: z.uuid() });
const done = z.object({ ok: z.literal(true) });

/** Application passwords exist only where slapd is run with KPI ID (LDAP_LDAPI_PATH set). */
function requireLdap(request: FastifyRequest): void {
  if (request.server.config.ldap.ldapiPath === undefined) throw new AppError("ldap.not_configured");
}

/** The account page's application passwords for LDAP: generated, shown once, revocable (docs/ldap.md). */
export const accountLdapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/account/ldap",
    {
      schema: {
        tags,
        summary: "My application passwords (LDAP)",
        description:
          "Each application password (never the secret) with its latest uses (when, through which LDAP client, " +
          "from which address), and the DN to bind as. 404 `ldap.not_configured` when the service runs no slapd.",
        response: { 200: ldapPasswordsSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireLdap(request);
      const session = await requireSession(request, reply);
      const username = session.user.username;
      const passwords = await listApplicationPasswords(app.db, session.userId);
      return {
        passwords: passwords.map((password) => ({
          id: password.id,
          name: password.name,
          createdAt: password.createdAt.toISOString(),
          lastUsedAt: password.lastUsedAt?.toISOString() ?? null,
          clientTitle: password.clientTitle,
          uses: password.uses.map((use) => ({
            usedAt: use.usedAt.toISOString(),
            client: use.client ?? "",
            address: use.peer ?? "",
          })),
        })),
        bindDn: `uid=${username},ou=people,${app.config.ldap.baseDn}`,
        username,
        limit: ldapPasswordLimit,
        clients: (await ldapClientsFor(app.db, session.userId)).map((client) => ({
          id: client.id,
          title: client.title,
        })),
      };
    },
  );

  app.post(
    "/api/account/ldap",
    {
      schema: {
        tags,
        summary: "Create an application password for LDAP",
        description:
          "Needs a sign-in within REAUTH_MAX_AGE_SECONDS (403 `auth.reauth_required`). The password is generated " +
          `and answered once; at most ${ldapPasswordLimit} (409 \`ldap.limit_reached\`). With \`clientId\` it works ` +
          "only through that registered client (one the person may bind through, else 404 `ldap.client_not_found`).",
        body: createLdapPasswordSchema,
        response: {
          200: createdLdapPasswordSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      requireLdap(request);
      const session = await requireSession(request, reply);
      requireRecentSignIn(session, reauthWindow(request));
      const { name, clientId } = request.body;
      if (clientId && !(await ldapClientsFor(app.db, session.userId)).some((client) => client.id === clientId)) {
        throw new AppError("ldap.client_not_found");
      }
      const created = await createApplicationPassword(
        app.db,
        app.config.sessionSecrets,
        session.userId,
        { name, clientId },
        app.clock(),
      );
      await audit(request, { type: "ldap_password_created", result: "success", userId: session.userId });
      return created;
    },
  );

  app.post(
    "/api/account/ldap/:id/revoke",
    {
      schema: {
        tags,
        summary: "Revoke an application password",
        description: "The next bind with it is refused.",
        params: idParams,
        response: { 200: done, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireLdap(request);
      const session = await requireSession(request, reply);
      await revokeApplicationPassword(app.db, session.userId, request.params.id);
      await audit(request, { type: "ldap_password_revoked", result: "success", userId: session.userId });
      return { ok: true as const };
    },
  );
};
