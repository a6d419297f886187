import {
  developerApplicationParamsSchema,
  errorBodySchema,
  reviewDecisionSchema,
  reviewQueueSchema,
  suspensionRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { findApplicationById, listApplicationsByTitle } from "../../model/apps/queries.ts";
import { decideChange } from "../../model/developers/changes.ts";
import { notifyOwners } from "../../model/developers/notices.ts";
import { decideReview, setSuspension } from "../../model/developers/review.ts";
import { isChangeOf, reviewQueue } from "../../model/developers/review-queue.ts";
import { approveInUnit, unitDecisionIsFinal } from "../../model/developers/unit-approval.ts";
import { findUnitById } from "../../model/people/units.ts";
import { AppError } from "../../platform/errors.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf } from "./plugin.ts";

const tags = ["admin"];
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The console's review queue for applications registered on the developers' page, and suspension of any application. */
export const adminReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/reviews",
    {
      config: { permission: "apps.view", subject: "list" },
      schema: {
        tags,
        summary: "Applications waiting for review",
        response: { 200: reviewQueueSchema, ...refusals },
      },
    },
    async (request) => {
      const queue = await reviewQueue(app.db);
      const { reach } = operatorOf(request);
      if (reach.everywhere) return queue;
      // A unit admin sees the requests of their units' applications only (issue 79), and decides them.
      const inReach = new Set((await listApplicationsByTitle(app.db, reach.unitIds)).map((row) => row.id));
      return { ...queue, reviews: queue.reviews.filter((item) => inReach.has(item.applicationId)) };
    },
  );

  app.post(
    "/api/admin/reviews/:id",
    {
      config: { permission: "apps.review", subject: "application" },
      schema: {
        tags,
        summary: "Approve or reject an application or a change to one",
        description:
          "`requestId` names the request the operator read (a review or a live application's pending change). " +
          "Review approved: the application is live and follows the access rules (with none yet, every active " +
          "employee and studying student); rejected: it stays in testing for its owners, with the reason on their " +
          "page. Change approved: its new values replace the live ones; rejected: the live application stays as " +
          "it is and the owners see the reason. Owners are told by e-mail. 409 `admin.review_not_pending` when " +
          "nothing waits, `admin.review_outdated` when another request waits than the one named; approval checks " +
          "addresses and names again (400 `developer.insecure_uri`, `developer.reserved_name`; it stays pending). " +
          "A unit admin decides their units' applications (others answer 404 `app.not_found`): a rejection is " +
          "final; an approval makes the application live where its unit or one above it lets unit reviews be " +
          "final (`unit reviews --final yes`), else it is a first approval and the request waits for an admin " +
          "(409 `admin.review_awaits_central` when asked again); the owners are told of a first approval by " +
          "e-mail too.",
        params: developerApplicationParamsSchema,
        body: reviewDecisionSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...refusals },
      },
    },
    async (request) => {
      const { id } = request.params;
      const operator = operatorOf(request);
      const operatorId = operator.userId;
      const change = await isChangeOf(app.db, id, request.body.requestId);
      // A unit admin's approval is a first one unless the operators let the unit decide (issue 79).
      if (!operator.reach.everywhere && request.body.decision === "approved" && operator.unitId) {
        if (!(await unitDecisionIsFinal(app.db, operator.unitId))) {
          const kind = change ? "change" : "review";
          await approveInUnit(
            app.db,
            { applicationId: id, requestId: request.body.requestId, kind },
            operatorId,
            operator.unitId,
          );
          await auditByOperator(request, {
            type: change ? "application_change_approved" : "application_reviewed",
            result: "success",
            applicationId: id,
            reason: "unit_approved",
            details: change ? { changeId: request.body.requestId } : {},
          });
          // The owners hear of the first step as of a decision: who approved it, and that central IT decide next.
          const [application, unit] = await Promise.all([
            findApplicationById(app.db, id),
            findUnitById(app.db, operator.unitId),
          ]);
          if (application) {
            await notifyOwners(app, application, change ? "change_unit_approved" : "unit_approved", "", unit);
          }
          return { ok: true as const };
        }
      }
      if (change) {
        const decided = await decideChange(app.db, id, request.body.requestId, operatorId, request.body);
        await auditByOperator(request, {
          type: request.body.decision === "approved" ? "application_change_approved" : "application_change_rejected",
          result: "success",
          applicationId: id,
          details: { changeId: request.body.requestId },
        });
        await notifyOwners(app, decided.application, `change_${request.body.decision}`, decided.reason);
        return { ok: true as const };
      }
      const decided = await decideReview(app.db, id, operatorId, request.body);
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
      config: { permission: "apps.manage", subject: "application" },
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
