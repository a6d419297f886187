import {
  adminApplicationDetailSchema,
  applicationPeoplePageSchema,
  applicationPeopleQuerySchema,
  applicationUpdateRequestSchema,
  bulkGrantReportSchema,
  bulkGrantRequestSchema,
  errorBodySchema,
  personIdParamsSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { BulkGrantTooLongError, bulkGrant } from "../../model/access/bulk-grant.ts";
import { findApplicationById } from "../../model/apps/queries.ts";
import { findUnitById } from "../../model/people/units.ts";
import { findPeopleByKeys } from "../../model/users/for-lists.ts";
import { peopleWithAccess } from "../../model/users/people-with-access.ts";
import { personInUnits } from "../../model/users/person-units.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import {
  ApplicationChangeError,
  changedFields,
  updateApplicationSettings,
} from "../../protocols/oidc/application-update.ts";
import { unitFilterOf } from "./authorize.ts";
import { auditByOperator, guardConsoleRoutes, operatorAndOrigin, operatorOf } from "./plugin.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ["admin"];

function isoOf(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function detailView(row: ApplicationRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    titleEn: row.title_en,
    descriptionEn: row.description_en,
    callbackUrls: [row.callback_url, ...row.extra_callback_urls],
    releaseTaxId: row.release_tax_id,
    requireMfa: row.require_mfa,
    oidcEnabled: row.oidc_enabled,
    redirectUris: row.redirect_uris,
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    scopes: row.allowed_scopes,
    publicClient: row.token_endpoint_auth_method === "none",
    firstParty: row.first_party,
    backchannelLogoutUri: row.backchannel_logout_uri,
    deviceFlow: row.oidc_device_flow,
    // Self-registered applications go through testing and review; an operator's suspension stops every sign-in.
    lifecycle: row.lifecycle,
    suspended: row.suspended_at !== null,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** The application named by the path, or 404 `app.not_found`. */
export async function requireApplication(db: Db, id: string): Promise<ApplicationRow> {
  const application = await findApplicationById(db, id);
  if (!application) throw new AppError("app.not_found");
  return application;
}

// A 5,000-line list of long addresses stays under this; a longer one is still read, to be told 413 by line count.
const bulkBodyLimit = 2 * 1024 * 1024;

/** The console's application screen: the whole application, its edit, who has access, bulk grant. */
export const adminApplicationDetailRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/applications/:id",
    {
      config: { permission: "apps.view", subject: "application" },
      schema: {
        tags,
        summary: "An application",
        description: "Every setting of the application (never its secret).",
        params: personIdParamsSchema,
        response: { 200: adminApplicationDetailSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const unit = application.unit_id ? await findUnitById(app.db, application.unit_id) : undefined;
      return {
        ...detailView(application),
        unit: unit ? { id: unit.id, code: unit.code, nameUk: unit.name_uk, nameEn: unit.name_en } : null,
      };
    },
  );

  app.post(
    "/api/admin/applications/:id",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Edit an application",
        description:
          "As `app update`: fields left out stay. One transaction: a refused edit (400 `app.invalid_url`, " +
          "`app.oidc_needs_redirect_uri`, `app.callback_required`, `app.unknown_scope`, `app.title_required`) changes nothing.",
        params: personIdParamsSchema,
        body: applicationUpdateRequestSchema,
        response: { 200: adminApplicationDetailSchema, 400: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      let updated: ApplicationRow;
      try {
        updated = await updateApplicationSettings(app.db, application, request.body);
      } catch (error) {
        if (error instanceof ApplicationChangeError) {
          throw new AppError(error.code, { details: [{ path: `body.${error.field}`, message: error.message }] });
        }
        throw error;
      }
      await auditByOperator(request, {
        type: "application_updated",
        result: "success",
        applicationId: application.id,
        details: { fields: changedFields(request.body) },
      });
      return detailView(updated);
    },
  );

  app.get(
    "/api/admin/applications/:id/people",
    {
      config: { permission: "apps.view", subject: "application" },
      schema: {
        tags,
        summary: "Who has access to an application",
        description: "People its individual grants and rules let in (exclusions taken out), 50 a page by username.",
        params: personIdParamsSchema,
        querystring: applicationPeopleQuerySchema,
        response: { 200: applicationPeoplePageSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const unitIds = unitFilterOf(operatorOf(request).reach);
      const inReach = unitIds ? personInUnits(unitIds) : undefined;
      const page = await peopleWithAccess(app.db, application.id, { ...request.query, inReach });
      return { ...page, page: request.query.page };
    },
  );

  app.post(
    "/api/admin/applications/:id/access/bulk-grant",
    {
      bodyLimit: bulkBodyLimit,
      config: { permission: "people.access", subject: "university" },
      schema: {
        tags,
        summary: "Grant an application to a list of people",
        description:
          "A pasted list or a CSV file's text, one username, e-mail or person id per line (at most 5,000: 413 " +
          "`app.bulk_grant_too_long`). One transaction; the answer reports each line.",
        params: personIdParamsSchema,
        body: bulkGrantRequestSchema,
        response: { 200: bulkGrantReportSchema, 400: errorBodySchema, 413: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      try {
        return await bulkGrant(
          app.db,
          application.id,
          request.body.list,
          {
            ...operatorAndOrigin(request),
            reason: "console",
            at: app.clock(),
          },
          findPeopleByKeys,
        );
      } catch (error) {
        if (error instanceof BulkGrantTooLongError) throw new AppError("app.bulk_grant_too_long");
        throw error;
      }
    },
  );
};
