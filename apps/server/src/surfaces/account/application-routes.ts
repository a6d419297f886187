import {
  accountMethodsSchema,
  connectedApplicationsSchema,
  errorBodySchema,
  revokeApplicationRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { forgetConsentsToApplication } from "../../model/admission/applications.ts";
import { connectedApplicationsOf } from "../../model/connections/applications.ts";
import { googleSubjectsOf } from "../../model/google/identities.ts";
import { revokeOidcGrants } from "../../model/oidc/grants.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { rememberContinueTo } from "../../sign-in/session/continue-cookie.ts";
import { requireSession } from "../../sign-in/session/current.ts";

/** The account page's sign-in methods and connected applications. */
export const accountApplicationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/account/methods",
    {
      schema: {
        tags: ["account"],
        summary: "My sign-in methods",
        description:
          "Whether the signed-in person has a password, a linked Google account (and whether Google is " +
          "configured here), and whether Diia can sign them in (their tax id is known).",
        response: { 200: accountMethodsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request, reply);
      const subjects = await googleSubjectsOf(app.db, user.id);
      return {
        username: user.username,
        password: user.password_hash !== null,
        google: { linked: subjects.length > 0, available: app.config.google !== undefined },
        diia: { usable: Boolean(user.tax_id) },
      };
    },
  );

  app.post(
    "/api/account/reauth/continue",
    {
      schema: {
        tags: ["account"],
        summary: "Come back to the account page after signing in again",
        description:
          "Before the person proves it is them again with Diia or Google for a sensitive change: the next " +
          "completed sign-in in this browser continues to `/{lang}/account` (kept in the server's signed " +
          "pending sign-in cookie).",
        body: z.object({}),
        response: { 200: z.object({ ok: z.literal(true) }), 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      await requireSession(request, reply);
      rememberContinueTo(reply, { kind: "account" });
      return { ok: true as const };
    },
  );

  app.get(
    "/api/account/applications",
    {
      schema: {
        tags: ["account"],
        summary: "My connected applications",
        description:
          "The applications the signed-in person used through OpenID Connect that hold a live grant or a " +
          "remembered consent, with the scopes they may read, and those they allowed a ticket (`ticketData`: " +
          "what the ticket exchange gives them).",
        response: { 200: connectedApplicationsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const language = requestLanguage(request);
      return { applications: await connectedApplicationsOf(app.db, session.userId, app.clock(), language) };
    },
  );

  app.post(
    "/api/account/applications/revoke",
    {
      schema: {
        tags: ["account"],
        summary: "Revoke a connected application",
        description:
          "Ends the application's grants for this person with every code, access and refresh token under " +
          "them, and forgets the consent (the OpenID Connect one, what the person allowed its SAML SPs and its tickets): a refresh answers `invalid_grant`, the next sign-in asks again. " +
          "Access to the application itself is the operator's to decide and stays. Audited " +
          "`application_revoked`. 404 `account.application_not_found` when it holds nothing.",
        body: revokeApplicationRequestSchema,
        response: { 200: z.object({ revoked: z.literal(true) }), 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const { applicationId } = request.body;
      const held = await connectedApplicationsOf(app.db, session.userId, app.clock());
      if (!held.some((application) => application.id === applicationId)) {
        throw new AppError("account.application_not_found");
      }
      await revokeOidcGrants(app.db, { userId: session.userId, clientId: applicationId });
      await forgetConsentsToApplication(app.db, session.userId, applicationId);
      await audit(request, { type: "application_revoked", result: "success", userId: session.userId, applicationId });
      return { revoked: true as const };
    },
  );
};
