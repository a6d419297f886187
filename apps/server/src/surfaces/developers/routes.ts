import {
  developerApplicationInputSchema,
  developerApplicationParamsSchema,
  developerApplicationSchema,
  developerApplicationsSchema,
  developerApplicationUpdateSchema,
  developerCredentialsSchema,
  errorBodySchema,
  integrationHealthSchema,
  reviewRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { editNeedsApproval, requestChange } from "../../model/developers/changes.ts";
import { integrationHealth } from "../../model/developers/health.ts";
import { requestReview } from "../../model/developers/review.ts";
import {
  applicationsOwnedBy,
  applyEdit,
  checkEdit,
  createDeveloperApplication,
  mayRegister,
  ownedApplication,
} from "../../model/developers/store.ts";
import { applicationDetail, applicationSummary } from "../../model/developers/view.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["developers"];
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const params = developerApplicationParamsSchema;
const notOwned = "404 `developer.application_not_found` for an application the person does not own (or none).";

/** The developers' page (/{lang}/developers): a person's own applications (issue 39). */
export const developerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/developers/applications",
    {
      schema: {
        tags,
        summary: "My applications",
        description:
          "The applications the signed-in person owns, whether they may register more (DEVELOPER_AFFILIATIONS) " +
          "and how many one person may own (DEVELOPER_MAX_APPLICATIONS).",
        response: { 200: developerApplicationsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const { affiliations, maxApplications } = app.config.developers;
      const [allowed, rows] = await Promise.all([
        mayRegister(app.db, userId, affiliations),
        applicationsOwnedBy(app.db, userId),
      ]);
      return { allowed, limit: maxApplications, applications: rows.map(applicationSummary) };
    },
  );

  app.post(
    "/api/developers/applications",
    {
      schema: {
        tags,
        summary: "Register an application",
        description:
          "A new application in testing (only its owners and named testers sign in), the person its owner; its " +
          "secret is in this answer only. 403 `developer.not_allowed` for an affiliation the operator does not " +
          "let register, 409 `developer.limit_reached` past DEVELOPER_MAX_APPLICATIONS, 400 " +
          "`developer.invalid_uri` for an address with a wildcard, a user name, a fragment or a scheme but https " +
          "(http only on localhost and 127.0.0.1, allowed after approval too), 400 `developer.uri_required` with neither a " +
          "callback nor a redirect URI (a `device` client needs none), 400 `developer.callbacks_need_secret` for " +
          "ticket callbacks on a `public` or `device` client (which has no secret: `secret` is empty).",
        body: developerApplicationInputSchema,
        response: { 200: developerCredentialsSchema, 400: errorBodySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const { affiliations, maxApplications } = app.config.developers;
      if (!(await mayRegister(app.db, userId, affiliations))) throw new AppError("developer.not_allowed");
      const created = await createDeveloperApplication(app.db, userId, request.body, maxApplications);
      await audit(request, {
        type: "application_created",
        result: "success",
        userId,
        applicationId: created.application.id,
        details: { via: "developers" },
      });
      return { application: await applicationDetail(app.db, created.application, userId), secret: created.secret };
    },
  );

  app.get(
    "/api/developers/applications/:id",
    {
      schema: {
        tags,
        summary: "One of my applications",
        description: `Its settings, owners, testers and review. ${notOwned}`,
        params,
        response: { 200: developerApplicationSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      return applicationDetail(app.db, row, userId, app.clock());
    },
  );

  app.post(
    "/api/developers/applications/:id",
    {
      schema: {
        tags,
        summary: "Change one of my applications",
        description:
          "A field left out stays. Addresses are checked as at registration (https, or http only on localhost and " +
          "127.0.0.1: 400 `developer.insecure_uri` names the address in its detail). A live application keeps running as approved: the edit " +
          "becomes its pending change (`pendingChange`), merged with one asked before, until an operator approves it. " +
          "409 `developer.under_review` while in review (what the operator reads does not move); 400 " +
          "`developer.reserved_name` for an official application's title or a look-alike, " +
          "`developer.invalid_characters` for control or format characters in a title or description, " +
          `\`developer.invalid_icon\` for an icon KPI ID does not store. Audited with the fields' names. ${notOwned}`,
        params,
        body: developerApplicationUpdateSchema,
        response: { 200: developerApplicationSchema, 400: errorBodySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      // Refused rather than restarting the review: the owner withdraws nothing by accident, the operator's page stays true.
      if (row.lifecycle === "in_review") throw new AppError("developer.under_review");
      const fields = Object.keys(request.body);
      if (editNeedsApproval(row)) {
        const { changeId, withdrew } = await requestChange(app.db, row, userId, request.body);
        if (changeId || withdrew) {
          await audit(request, {
            type: changeId ? "application_change_requested" : "application_change_withdrawn",
            result: "success",
            userId,
            applicationId: row.id,
            details: { via: "developers", fields, ...(changeId && { changeId }) },
          });
        }
        return applicationDetail(app.db, row, userId);
      }
      await checkEdit(app.db, row, request.body);
      const updated = await applyEdit(app.db, row, request.body);
      await audit(request, {
        type: "application_updated",
        result: "success",
        userId,
        applicationId: row.id,
        details: { via: "developers", fields },
      });
      return applicationDetail(app.db, updated, userId);
    },
  );

  app.post(
    "/api/developers/applications/:id/review",
    {
      schema: {
        tags,
        summary: "Ask for my application to go live",
        description:
          "The purpose and the data it needs and why, for the operators' review queue; the application is in " +
          "review until they decide. 409 `developer.review_not_possible` when in review, live or suspended; " +
          `400 \`developer.insecure_uri\` naming an address stored under older rules. ${notOwned}`,
        params,
        body: reviewRequestSchema,
        response: { 200: developerApplicationSchema, 400: errorBodySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      await requestReview(app.db, row, userId, request.body);
      await audit(request, { type: "application_review_requested", result: "success", userId, applicationId: row.id });
      return applicationDetail(app.db, await ownedApplication(app.db, userId, row.id), userId);
    },
  );

  app.get(
    "/api/developers/applications/:id/health",
    {
      schema: {
        tags,
        summary: "How my integration is doing",
        description:
          "Sign-ins per day (30 days) and the last 50 requests the integration got wrong with the reason " +
          `(wrong secret, reused or expired ticket, unregistered redirect URI, no access, PKCE missing…). ${notOwned}`,
        params,
        response: { 200: integrationHealthSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      return integrationHealth(app.db, row.id, app.clock());
    },
  );
};
