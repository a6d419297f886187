import {
  changeWithdrawalSchema,
  developerApplicationParamsSchema,
  developerApplicationSchema,
  errorBodySchema,
  iconFileParamsSchema,
  iconUploadResultSchema,
  iconUploadSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { withdrawChange } from "../../model/developers/changes.ts";
import { storedIcon, storeIcon } from "../../model/developers/icons.ts";
import { ownedApplication } from "../../model/developers/store.ts";
import { applicationDetail } from "../../model/developers/view.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["developers"];
const refusals = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const notOwned = "404 `developer.application_not_found` for an application the person does not own (or none).";

/**
 * An SVG icon is a document: whatever it holds, it runs nothing, loads nothing and is never read as HTML, even when
 * opened on its own (the upload check refuses scripts and outside references too).
 */
const iconHeaders = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "x-content-type-options": "nosniff",
  // The address is the bytes' hash: the same address never shows other bytes.
  "cache-control": "public, max-age=31536000, immutable",
  "cross-origin-resource-policy": "same-origin",
};

/** A live application's pending change withdrawn by its owner, and icons uploaded to and served by KPI ID (issue 56). */
export const developerChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/developers/applications/:id/change/withdraw",
    {
      schema: {
        tags,
        summary: "Withdraw my application's pending change",
        description:
          "The live application stays as approved and the change leaves the operators' queue. 409 " +
          `\`developer.change_not_pending\` when that change is no longer pending (decided, replaced). ${notOwned}`,
        params: developerApplicationParamsSchema,
        body: changeWithdrawalSchema,
        response: { 200: developerApplicationSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      await withdrawChange(app.db, row.id, request.body.changeId);
      await audit(request, {
        type: "application_change_withdrawn",
        result: "success",
        userId,
        applicationId: row.id,
        details: { via: "developers", changeId: request.body.changeId },
      });
      return applicationDetail(app.db, row, userId);
    },
  );

  app.post(
    "/api/developers/applications/:id/icon",
    {
      bodyLimit: 128 * 1024,
      schema: {
        tags,
        summary: "Upload my application's icon",
        description:
          "A PNG or SVG file (base64, at most 64 KiB) stored by KPI ID; the answer is its address, which an edit then " +
          "names as `iconUrl` (at once while testing, as a pending change when live). An SVG with scripts, event " +
          "attributes, foreignObject, styles or outside references is refused: 400 `developer.invalid_icon`. " +
          notOwned,
        params: developerApplicationParamsSchema,
        body: iconUploadSchema,
        response: { 200: iconUploadResultSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      return { iconUrl: await storeIcon(app.db, row.id, request.body) };
    },
  );

  app.get(
    "/api/developers/icons/:file",
    {
      schema: {
        tags,
        summary: "An application's icon",
        description:
          "Served by KPI ID under the SHA-256 of its bytes, with a CSP that runs and loads nothing. " +
          "404 `request.not_found` for none.",
        params: iconFileParamsSchema,
      },
    },
    async (request, reply) => {
      const icon = await storedIcon(app.db, request.params.file);
      if (!icon) throw new AppError("request.not_found");
      return reply.headers(iconHeaders).type(icon.content_type).send(Buffer.from(icon.bytes));
    },
  );
};
