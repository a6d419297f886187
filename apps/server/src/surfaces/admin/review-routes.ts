import {
  developerApplicationParamsSchema,
  errorBodySchema,
  type ReviewQueue,
  reviewDecisionSchema,
  reviewQueueSchema,
  suspensionRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { notifyOwners } from "../../model/developers/notices.ts";
import { decideReview, setSuspension } from "../../model/developers/review.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf } from "./plugin.ts";

const tags = ["admin"];
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Every pending review request, oldest first, with what the application would receive. */
async function reviewQueue(db: Db): Promise<ReviewQueue> {
  const rows = await db
    .selectFrom("application_reviews")
    .innerJoin("applications", "applications.id", "application_reviews.application_id")
    .selectAll("applications")
    .select(["application_reviews.purpose", "application_reviews.data_needed", "application_reviews.requested_at"])
    .where("application_reviews.decision", "is", null)
    .orderBy("application_reviews.requested_at")
    .execute();
  const owners = await db
    .selectFrom("application_owners")
    .innerJoin("users", "users.id", "application_owners.user_id")
    .select(["application_owners.application_id", "users.username"])
    .where(
      "application_owners.application_id",
      "in",
      rows.length ? rows.map((row) => row.id) : ["00000000-0000-0000-0000-000000000000"],
    )
    .execute();
  return {
    reviews: rows.map((row) => ({
      applicationId: row.id,
      title: row.title,
      titleEn: row.title_en,
      description: row.description,
      descriptionEn: row.description_en,
      homePageUrl: row.home_page_url,
      privacyPolicyUrl: row.privacy_policy_url,
      callbackUrls: [row.callback_url, ...row.extra_callback_urls].filter(Boolean),
      redirectUris: row.redirect_uris,
      scopes: row.allowed_scopes,
      owners: owners.filter((owner) => owner.application_id === row.id).map((owner) => owner.username),
      purpose: row.purpose,
      dataNeeded: row.data_needed,
      requestedAt: row.requested_at.toISOString(),
    })),
  };
}

/** The console's review queue for applications registered on the developers' page, and suspension of any application. */
export const adminReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/reviews",
    {
      config: { permission: "apps.view" },
      schema: {
        tags,
        summary: "Applications waiting for review",
        response: { 200: reviewQueueSchema, ...refusals },
      },
    },
    async () => reviewQueue(app.db),
  );

  app.post(
    "/api/admin/reviews/:id",
    {
      config: { permission: "apps.manage" },
      schema: {
        tags,
        summary: "Approve or reject an application",
        description:
          "Approved: the application is live and follows the access rules (with none yet, every active employee " +
          "and studying student). Rejected: it stays in testing for its owners, with the reason on their page. " +
          "Its owners are told by e-mail. 409 `admin.review_not_pending` when nothing waits; approval checks the " +
          "addresses again, 400 `developer.insecure_uri` for an http one (the request stays pending).",
        params: developerApplicationParamsSchema,
        body: reviewDecisionSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...refusals },
      },
    },
    async (request) => {
      const { id } = request.params;
      const decided = await decideReview(app.db, id, operatorOf(request).userId, request.body);
      await auditByOperator(request, {
        type: "application_reviewed",
        result: "success",
        applicationId: id,
        reason: request.body.decision,
      });
      await notifyOwners(app, decided.application, request.body.decision, decided.reason);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/admin/applications/:id/suspension",
    {
      config: { permission: "apps.manage" },
      schema: {
        tags,
        summary: "Suspend or resume an application",
        description:
          "Suspended: every sign-in stops at once (tickets, OpenID Connect authorization, token and refresh, " +
          "SAML); resumed: it works as before. Its owners are told by e-mail.",
        params: developerApplicationParamsSchema,
        body: suspensionRequestSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...refusals },
      },
    },
    async (request) => {
      const { suspended, reason } = request.body;
      const row = await setSuspension(app.db, request.params.id, suspended, reason);
      if (!row) throw new AppError("app.not_found");
      await auditByOperator(request, {
        type: suspended ? "application_suspended" : "application_unsuspended",
        result: "success",
        applicationId: row.id,
      });
      await notifyOwners(app, row, suspended ? "suspended" : "unsuspended", reason);
      return { ok: true as const };
    },
  );
};
