import {
  developerApplicationParamsSchema,
  developerApplicationUpdateSchema,
  errorBodySchema,
  type ReviewQueue,
  reviewDecisionSchema,
  reviewQueueSchema,
  suspensionRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { decideChange, differences, pendingChanges } from "../../model/developers/changes.ts";
import { notifyOwners } from "../../model/developers/notices.ts";
import { decideReview, setSuspension } from "../../model/developers/review.ts";
import { reviewedValues } from "../../model/developers/view.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf } from "./plugin.ts";

const tags = ["admin"];
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * Every pending request, oldest first: new applications asking to go live with what they would receive, and live
 * applications' pending changes with their live values and each changed field old → new.
 */
async function reviewQueue(db: Db): Promise<ReviewQueue> {
  const rows = await db
    .selectFrom("application_reviews")
    .innerJoin("applications", "applications.id", "application_reviews.application_id")
    .selectAll("applications")
    .select([
      "application_reviews.id as review_id",
      "application_reviews.purpose",
      "application_reviews.data_needed",
      "application_reviews.requested_at",
    ])
    .where("application_reviews.decision", "is", null)
    .orderBy("application_reviews.requested_at")
    .execute();
  const changes = await pendingChanges(db);
  const ids = [...rows, ...changes].map((row) => row.id);
  const owners = await db
    .selectFrom("application_owners")
    .innerJoin("users", "users.id", "application_owners.user_id")
    .select(["application_owners.application_id", "users.username"])
    .where("application_owners.application_id", "in", ids.length ? ids : ["00000000-0000-0000-0000-000000000000"])
    .execute();
  const live = (row: ApplicationRow) => ({
    applicationId: row.id,
    ...reviewedValues(row),
    owners: owners.filter((owner) => owner.application_id === row.id).map((owner) => owner.username),
  });
  const changeRequests = changes.map((row) => ({
    ...live(row),
    kind: "change" as const,
    requestId: row.change_id,
    changes: differences(row, developerApplicationUpdateSchema.parse(row.changes)),
    purpose: "",
    dataNeeded: "",
    requestedAt: row.change_requested_at.toISOString(),
  }));
  return {
    reviews: [
      ...rows.map((row) => ({
        ...live(row),
        kind: "review" as const,
        requestId: row.review_id,
        changes: [],
        purpose: row.purpose,
        dataNeeded: row.data_needed,
        requestedAt: row.requested_at.toISOString(),
      })),
      ...changeRequests,
    ].sort((left, right) => left.requestedAt.localeCompare(right.requestedAt)),
  };
}

/** Whether the request named is one of the application's pending changes (whatever its state now), not its review. */
async function isChangeOf(db: Db, applicationId: string, requestId: string): Promise<boolean> {
  const row = await db
    .selectFrom("application_changes")
    .select("id")
    .where("id", "=", requestId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  return row !== undefined;
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
        summary: "Approve or reject an application or a change to one",
        description:
          "`requestId` names the request the operator read (a review or a live application's pending change). " +
          "Review approved: the application is live and follows the access rules (with none yet, every active " +
          "employee and studying student); rejected: it stays in testing for its owners, with the reason on their " +
          "page. Change approved: its new values replace the live ones; rejected: the live application stays as " +
          "it is and the owners see the reason. Owners are told by e-mail. 409 `admin.review_not_pending` when " +
          "nothing waits, `admin.review_outdated` when another request waits than the one named; approval checks " +
          "addresses and names again (400 `developer.insecure_uri`, `developer.reserved_name`; it stays pending).",
        params: developerApplicationParamsSchema,
        body: reviewDecisionSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...refusals },
      },
    },
    async (request) => {
      const { id } = request.params;
      const operatorId = operatorOf(request).userId;
      if (await isChangeOf(app.db, id, request.body.requestId)) {
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
