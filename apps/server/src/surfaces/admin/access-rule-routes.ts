import {
  adminActionResultSchema,
  applicationAccessSchema,
  errorBodySchema,
  exclusionRequestSchema,
  liftExclusionRequestSchema,
  newAccessRuleRequestSchema,
  personIdParamsSchema,
  ruleIdRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  addAccessRule,
  DuplicateRuleError,
  excludePerson,
  liftExclusion,
  listAccessRules,
  type RuleChangeActor,
  removeAccessRule,
} from "../../model/access/rules.ts";
import { revokeOidcGrants } from "../../model/oidc/grants.ts";
import { findUnitByCode } from "../../model/people/units.ts";
import { countPeopleWithAccess, listExclusions } from "../../model/users/for-lists.ts";
import { findUserByUsername } from "../../model/users/queries.ts";
import { AppError } from "../../platform/errors.ts";
import { requireApplication } from "./application-detail-routes.ts";
import { reaches } from "./authorize.ts";
import { guardConsoleRoutes, operatorAndOrigin, operatorOf, seesPerson } from "./plugin.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ["admin"];

/** The console's operator as the rule functions' actor: the audit row names them and the request's origin. */
function consoleActor(request: FastifyRequest): RuleChangeActor {
  return { actor: "console", ...operatorAndOrigin(request) };
}

/** Access rules and individual exclusions in the console: the same functions as `app rule …` and `app exclude`. */
export const adminAccessRuleRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/applications/:id/access",
    {
      config: { permission: "apps.view", subject: "application" },
      schema: {
        tags,
        summary: "An application's access rules",
        description: "As `app rule list`: its rules, its individual exclusions, and how many people may use it now.",
        params: personIdParamsSchema,
        response: { 200: applicationAccessSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const [rules, exclusions, people] = await Promise.all([
        listAccessRules(app.db, application.id),
        listExclusions(app.db, application.id),
        countPeopleWithAccess(app.db, application.id),
      ]);
      return {
        rules: rules.map(({ unitId: _unitId, ...rule }) => rule),
        exclusions,
        people,
      };
    },
  );

  app.post(
    "/api/admin/applications/:id/rules",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Add an access rule",
        description:
          "As `app rule add`: every condition given must hold for one of a person's records. 400 `app.rule_empty`, " +
          "`app.unknown_unit`; 409 `app.rule_exists`.",
        params: personIdParamsSchema,
        body: newAccessRuleRequestSchema,
        response: { 200: adminActionResultSchema, 400: errorBodySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const { affiliation, unitCode, includeSubunits, status } = request.body;
      const { reach } = operatorOf(request);
      let unitId: string | undefined;
      if (unitCode) {
        const unit = await findUnitByCode(app.db, unitCode);
        if (!unit || !reaches(reach, unit.id)) throw new AppError("app.unknown_unit");
        unitId = unit.id;
      } else if (!reach.everywhere) {
        // A unit admin's rule names one of their units: "every student" would open it beyond them (issue 79).
        throw new AppError("app.unknown_unit");
      }
      try {
        await addAccessRule(
          app.db,
          application.id,
          { affiliation, unitId, includeSubunits, status },
          consoleActor(request),
        );
      } catch (error) {
        if (error instanceof z.ZodError) throw new AppError("app.rule_empty");
        if (error instanceof DuplicateRuleError) throw new AppError("app.rule_exists");
        throw error;
      }
      return { done: true, count: await countPeopleWithAccess(app.db, application.id) };
    },
  );

  app.post(
    "/api/admin/applications/:id/rules/remove",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Remove an access rule",
        description:
          "As `app rule remove`: the people it alone let in lose the application at once. 404 `app.rule_not_found`.",
        params: personIdParamsSchema,
        body: ruleIdRequestSchema,
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      if (!(await removeAccessRule(app.db, application.id, request.body.ruleId, consoleActor(request)))) {
        throw new AppError("app.rule_not_found");
      }
      return { done: true, count: await countPeopleWithAccess(app.db, application.id) };
    },
  );

  app.post(
    "/api/admin/applications/:id/exclusions",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Exclude a person",
        description:
          "As `app exclude`: the person loses the application whatever its rules and grants say. 404 `app.unknown_person`.",
        params: personIdParamsSchema,
        body: exclusionRequestSchema,
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const person = await findUserByUsername(app.db, request.body.username);
      // A unit admin names people of their units only: anyone else is unknown to them, as nobody is (issue 79).
      if (!person || !(await seesPerson(request, person.id))) throw new AppError("app.unknown_person");
      await excludePerson(app.db, person.id, application.id, consoleActor(request));
      // The application's OpenID Connect tokens for them end too (model/access stays below the provider's grants).
      await revokeOidcGrants(app.db, { userId: person.id, clientId: application.id });
      return { done: true, count: await countPeopleWithAccess(app.db, application.id) };
    },
  );

  app.post(
    "/api/admin/applications/:id/exclusions/remove",
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Lift an exclusion",
        description:
          "The application's rules and grants decide for the person again; `done` is false when there was none.",
        params: personIdParamsSchema,
        body: liftExclusionRequestSchema,
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const done = await liftExclusion(app.db, request.body.userId, application.id, consoleActor(request));
      return { done, count: await countPeopleWithAccess(app.db, application.id) };
    },
  );
};
