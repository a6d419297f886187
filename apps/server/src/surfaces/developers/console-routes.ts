import {
  applicationDeletionSchema,
  developerApplicationParamsSchema,
  developerApplicationSchema,
  developerCredentialsSchema,
  deviceFlowSettingSchema,
  errorBodySchema,
  secretReplacementSchema,
  signOutEveryoneResultSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { deleteDeveloperApplication, setDeviceFlow, signEveryoneOut } from "../../model/developers/removal.ts";
import { endPreviousSecret, replaceSecret } from "../../model/developers/secrets.ts";
import { ownedApplication } from "../../model/developers/store.ts";
import { applicationDetail } from "../../model/developers/view.ts";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["developers"];
const params = developerApplicationParamsSchema;
const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const notOwned = "404 `developer.application_not_found` for an application the person does not own (or none).";
const recent = "Needs a recent sign-in (403 `auth.reauth_required`).";

/**
 * The developers' page's console actions (issue 60): secrets with an overlap, device sign-in, signing everyone out
 * and deleting an application. Each for an owner only, each audited.
 */
export const developerConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/developers/applications/:id/secret",
    {
      schema: {
        tags,
        summary: "Replace my application's secret",
        description:
          "A new secret, in this answer only. The old one keeps working `overlapHours` more (0 to 168; 0 or left " +
          "out: it stops at once), so every server can move to the new one first; a secret replaced earlier and " +
          `still overlapping ends now. The ticket exchange and OpenID Connect's token endpoint accept either. ${recent} ` +
          `A public client has none (400 \`developer.no_secret\`). ${notOwned}`,
        params,
        body: secretReplacementSchema,
        response: { 200: developerCredentialsSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const row = await ownedApplication(app.db, session.userId, request.params.id);
      requireRecentSignIn(session, reauthWindow(request));
      if (row.token_endpoint_auth_method === "none") throw new AppError("developer.no_secret");
      const overlapHours = request.body.overlapHours;
      const secret = await replaceSecret(app.db, row, overlapHours, app.clock());
      await audit(request, {
        type: "application_secret_rotated",
        result: "success",
        userId: session.userId,
        applicationId: row.id,
        details: { via: "developers", overlapHours },
      });
      const updated = await ownedApplication(app.db, session.userId, row.id);
      return { application: await applicationDetail(app.db, updated, session.userId, app.clock()), secret };
    },
  );

  app.post(
    "/api/developers/applications/:id/secret/end-previous",
    {
      schema: {
        tags,
        summary: "End my application's replaced secret now",
        description: `The secret replaced last stops working at once, before its overlap is over. ${recent} ${notOwned}`,
        params,
        body: z.object({}),
        response: { 200: developerApplicationSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const row = await ownedApplication(app.db, session.userId, request.params.id);
      requireRecentSignIn(session, reauthWindow(request));
      await endPreviousSecret(app.db, row.id, app.clock());
      await audit(request, {
        type: "application_secret_ended",
        result: "success",
        userId: session.userId,
        applicationId: row.id,
      });
      return applicationDetail(
        app.db,
        await ownedApplication(app.db, session.userId, row.id),
        session.userId,
        app.clock(),
      );
    },
  );

  app.post(
    "/api/developers/applications/:id/device-flow",
    {
      schema: {
        tags,
        summary: "Turn device sign-in on or off",
        description:
          "The OAuth 2.0 device authorization grant (RFC 8628) for a command-line tool or a device without a " +
          "browser, at once (it releases no other data, so a live application needs no review for it). Turned " +
          `off, device codes waiting for their person end. ${notOwned}`,
        params,
        body: deviceFlowSettingSchema,
        response: { 200: developerApplicationSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      const updated = await setDeviceFlow(app.db, row, request.body.enabled, app.clock());
      await audit(request, {
        type: "application_updated",
        result: "success",
        userId,
        applicationId: row.id,
        details: { via: "developers", fields: ["deviceFlow"], deviceFlow: request.body.enabled },
      });
      return applicationDetail(app.db, updated, userId, app.clock());
    },
  );

  app.post(
    "/api/developers/applications/:id/sign-everyone-out",
    {
      schema: {
        tags,
        summary: "Sign everyone out of my application",
        description:
          "Ends every OpenID Connect grant and token, device code and unredeemed ticket of the application, and " +
          "what each person agreed to (they are asked again at their next sign-in). The application itself stays. " +
          `${recent} ${notOwned}`,
        params,
        body: z.object({}),
        response: { 200: signOutEveryoneResultSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const row = await ownedApplication(app.db, session.userId, request.params.id);
      requireRecentSignIn(session, reauthWindow(request));
      const ended = await signEveryoneOut(app.db, row.id);
      await audit(request, {
        type: "application_signed_out_everyone",
        result: "success",
        userId: session.userId,
        applicationId: row.id,
        details: { ended },
      });
      return { ok: true as const, ended };
    },
  );

  app.post(
    "/api/developers/applications/:id/delete",
    {
      schema: {
        tags,
        summary: "Delete my application",
        description:
          "For good: everyone is signed out (tokens, consents, tickets end) and the application, its owners, " +
          "testers, invitations, reviews and changes are removed; the audit keeps its rows. `confirm` is its name " +
          `in either language, exactly (400 \`developer.confirmation_mismatch\`). ${recent} ${notOwned}`,
        params,
        body: applicationDeletionSchema,
        response: { 200: signOutEveryoneResultSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const row = await ownedApplication(app.db, session.userId, request.params.id);
      requireRecentSignIn(session, reauthWindow(request));
      const ended = await deleteDeveloperApplication(app.db, row, request.body.confirm);
      // Written after the row is gone: the audit row keeps the id and names in its details, not a reference.
      await audit(request, {
        type: "application_deleted",
        result: "success",
        userId: session.userId,
        details: { via: "developers", applicationId: row.id, name: row.name, title: row.title, ended },
      });
      return { ok: true as const, ended };
    },
  );
};
