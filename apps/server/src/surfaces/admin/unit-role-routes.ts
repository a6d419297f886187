import {
  adminActionResultSchema,
  adminUnitsSchema,
  applicationUnitRequestSchema,
  errorBodySchema,
  personIdParamsSchema,
  unitReviewsFinalRequestSchema,
  unitRoleRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { findApplicationById, setApplicationUnit } from "../../model/apps/queries.ts";
import { findUnitById, listUnits, reviewsFinalAuditEvent, setReviewsFinalOf } from "../../model/people/units.ts";
import { grantUnitRole, revokeUnitRole } from "../../model/users/unit-roles.ts";
import { AppError } from "../../platform/errors.ts";
import { reaches } from "./authorize.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf, requirePersonToActOn } from "./plugin.ts";
import { requireUnitInReach } from "./units.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ["admin"];

/**
 * The units a console role reaches, an admin's granting of roles in units and letting a unit decide its reviews, and
 * the unit an application belongs to (issue 79).
 */
export const adminUnitRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/units",
    {
      config: { permission: "console.enter", subject: "list" },
      schema: {
        tags,
        summary: "Units within reach",
        description:
          "Every unit for admin and helpdesk; for a unit role, the units it is held in and every unit below them. " +
          "`reviewsFinal`: its unit admins' approvals make applications live (`unit reviews --final`).",
        response: { 200: adminUnitsSchema, ...refusals },
      },
    },
    async (request) => {
      const { reach } = operatorOf(request);
      const units = (await listUnits(app.db)).filter((unit) => reaches(reach, unit.id));
      return {
        units: units.map((unit) => ({
          id: unit.id,
          code: unit.code,
          nameUk: unit.name_uk,
          nameEn: unit.name_en,
          parentId: unit.parent_id,
          reviewsFinal: unit.reviews_final,
        })),
      };
    },
  );

  app.post(
    "/api/admin/units/:id/reviews-final",
    {
      config: { permission: "apps.delegate_reviews", subject: "university" },
      schema: {
        tags,
        summary: "Let a unit's admins decide its reviews finally, or take it back",
        description:
          "As `unit reviews --code C --final yes|no`: with `final` true, a unit admin's approval of an application " +
          "of the unit or a unit below it makes it live; with false, it is a first approval central IT confirms. " +
          "Admins alone. `done` is false when the unit was so already (nothing is audited). 404 " +
          "`admin.unit_not_found`. Audited as `unit_reviews_set`, naming the unit.",
        params: personIdParamsSchema,
        body: unitReviewsFinalRequestSchema,
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const unit = await findUnitById(app.db, request.params.id);
      if (!unit) throw new AppError("admin.unit_not_found");
      if (unit.reviews_final === request.body.final) return { done: false };
      const changed = await setReviewsFinalOf(app.db, unit.id, request.body.final);
      await auditByOperator(request, reviewsFinalAuditEvent(changed, "console"));
      return { done: true };
    },
  );

  for (const action of ["grant", "revoke"] as const) {
    app.post(
      `/api/admin/people/:id/unit-roles/${action}`,
      {
        config: { permission: "people.roles", subject: "university" },
        schema: {
          tags,
          summary: action === "grant" ? "Give a person a role in a unit" : "Take a person's role in a unit away",
          description:
            "As `role grant|revoke --role unit_admin|unit_helpdesk --unit CODE`: the role reaches the unit and " +
            "every unit below it. `done` is false when nothing changed. 404 `admin.unit_not_found`.",
          params: personIdParamsSchema,
          body: unitRoleRequestSchema,
          response: { 200: adminActionResultSchema, ...refusals },
        },
      },
      async (request) => {
        const person = await requirePersonToActOn(request, request.params.id);
        const { unitId, role } = request.body;
        const unit = await findUnitById(app.db, unitId);
        if (!unit) throw new AppError("admin.unit_not_found");
        const done =
          action === "grant"
            ? await grantUnitRole(app.db, person.id, unit.id, role)
            : await revokeUnitRole(app.db, person.id, unit.id, role);
        await auditByOperator(request, {
          type: action === "grant" ? "role_granted" : "role_revoked",
          result: "success",
          userId: person.id,
          unitId: unit.id,
          reason: done ? `console.${role}` : `console.${role}.unchanged`,
        });
        return { done };
      },
    );
  }

  app.post(
    "/api/admin/applications/:id/unit",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Assign an application to a unit",
        description:
          "An admin names any unit, or null for central IT's; a unit admin moves one of their applications to " +
          "another unit within reach (a unit out of reach, or null, is 404 `admin.unit_not_found`). `done` is false " +
          "when it belonged there already. Audited as `application_updated` with the field `unit`.",
        params: personIdParamsSchema,
        body: applicationUnitRequestSchema,
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const operator = operatorOf(request);
      const application = await findApplicationById(app.db, request.params.id);
      if (!application) throw new AppError("app.not_found");
      const unitId = await requireUnitInReach(app.db, operator.reach, request.body.unitId ?? undefined);
      if (application.unit_id === unitId) return { done: false };
      await setApplicationUnit(app.db, application.id, unitId);
      await auditByOperator(request, {
        type: "application_updated",
        result: "success",
        applicationId: application.id,
        unitId: unitId ?? undefined,
        details: { fields: ["unit"] },
      });
      return { done: true };
    },
  );
};
