import {
  adminApplicationsSchema,
  applicationSecretSchema,
  type ErrorCode,
  errorBodySchema,
  newApplicationRequestSchema,
  personIdParamsSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { peopleCounts } from "../../model/access/people-counts.ts";
import { findApplicationById, listApplicationsByTitle } from "../../model/apps/queries.ts";
import { createApplication, rotateApplicationSecret } from "../../model/apps/service.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { unitFilterOf } from "./authorize.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf } from "./plugin.ts";
import { requireUnitInReach, unitCodes } from "./units.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema };
const tags = ["admin"];

function applicationView(row: ApplicationRow, people: number, unitCodes: ReadonlyMap<string, string>) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    titleEn: row.title_en,
    callbackUrl: row.callback_url,
    oidcEnabled: row.oidc_enabled,
    firstParty: row.first_party,
    people,
    unit: row.unit_id ? { id: row.unit_id, code: unitCodes.get(row.unit_id) ?? "" } : null,
  };
}

// The code of a refused field names the rule it broke, so the form can say why beside the field.
const creationCodes: Record<string, ErrorCode> = {
  name: "app.invalid_name",
  title: "app.title_required",
  callbackUrl: "app.invalid_url",
};

/** A refused new application: its first bad field's code, every bad field in the details. */
function creationRefusal(error: z.ZodError): AppError {
  const details = error.issues.map((issue) => ({ path: `body.${issue.path.join(".")}`, message: issue.message }));
  const field = String(error.issues[0]?.path[0] ?? "");
  return new AppError(creationCodes[field] ?? "request.validation_failed", { details });
}

/** The console's applications: list, register (the secret shown once), rotate the secret. */
export const adminApplicationRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/applications",
    {
      config: { permission: "apps.view", subject: "list" },
      schema: {
        tags,
        summary: "Applications",
        description: "Every registered application with how many people may use it.",
        response: { 200: adminApplicationsSchema, ...refusals },
      },
    },
    async (request) => {
      const unitIds = unitFilterOf(operatorOf(request).reach);
      const [rows, counts, codes] = await Promise.all([
        listApplicationsByTitle(app.db, unitIds),
        peopleCounts(app.db),
        unitCodes(app.db),
      ]);
      return { applications: rows.map((row) => applicationView(row, counts.get(row.id) ?? 0, codes)) };
    },
  );

  app.post(
    "/api/admin/applications",
    {
      config: { permission: "apps.manage", subject: "list" },
      schema: {
        tags,
        summary: "Register an application",
        description:
          "As `app create`; the answer holds the secret, which is never shown again. A refused field is named in " +
          "`details` (its `path`), with a code for why: `app.invalid_name`, `app.title_required`, `app.invalid_url`, " +
          "409 `admin.application_name_taken`.",
        body: newApplicationRequestSchema,
        response: { 200: applicationSecretSchema, 400: errorBodySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const operator = operatorOf(request);
      const unitId = await requireUnitInReach(app.db, operator.reach, request.body.unitId);
      operator.unitId = unitId ?? undefined;
      let created: Awaited<ReturnType<typeof createApplication>>;
      try {
        created = await createApplication(app.db, { ...request.body, unitId });
      } catch (error) {
        if (error instanceof z.ZodError) throw creationRefusal(error);
        if ((error as { code?: string }).code === "23505") {
          throw new AppError("admin.application_name_taken", {
            details: [{ path: "body.name", message: "an application with this name exists" }],
          });
        }
        throw error;
      }
      await auditByOperator(request, {
        type: "application_created",
        result: "success",
        applicationId: created.application.id,
      });
      return { application: applicationView(created.application, 0, await unitCodes(app.db)), secret: created.secret };
    },
  );

  app.post(
    "/api/admin/applications/:id/rotate-secret",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Rotate an application's secret",
        description: "As `app rotate-secret`: the old secret stops working now; the new one is in this answer only.",
        params: personIdParamsSchema,
        body: z.object({}).optional(),
        response: { 200: applicationSecretSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const rotated = await rotateApplicationSecret(app.db, request.params.id);
      if (!rotated) throw new AppError("app.not_found");
      const current = (await findApplicationById(app.db, rotated.application.id)) ?? rotated.application;
      await auditByOperator(request, {
        type: "application_secret_rotated",
        result: "success",
        applicationId: rotated.application.id,
      });
      const people = (await peopleCounts(app.db)).get(current.id) ?? 0;
      return { application: applicationView(current, people, await unitCodes(app.db)), secret: rotated.secret };
    },
  );
};
