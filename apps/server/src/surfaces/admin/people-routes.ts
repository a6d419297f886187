import {
  adminActionResultSchema,
  adminMeSchema,
  applicationIdRequestSchema,
  errorBodySchema,
  peoplePageSchema,
  peopleQuerySchema,
  personChangesRequestSchema,
  personDetailSchema,
  personIdParamsSchema,
  personStatusRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { grantAccess } from "../../model/access/applications.ts";
import { revokeAccess } from "../../model/admission/applications.ts";
import { findApplicationById } from "../../model/apps/queries.ts";
import { unlockPerson } from "../../model/housekeeping/unlock.ts";
import { revokeOidcGrants } from "../../model/oidc/grants.ts";
import { unitsByIds } from "../../model/people/units.ts";
import { disableUser } from "../../model/sessions/disable.ts";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { searchPeople } from "../../model/users/people-search.ts";
import { updateUser } from "../../model/users/queries.ts";
import { AppError } from "../../platform/errors.ts";
import { permissionsOf, unitFilterOf } from "./authorize.ts";
import { heldUnitRoleView, personDetail, requirePerson, updateProfile } from "./people.ts";
import { auditByOperator, guardConsoleRoutes, operatorAndOrigin, operatorOf, requirePersonToActOn } from "./plugin.ts";

// 409 `admin.person_erased`: nothing is done to an erased person.
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema };
const tags = ["admin"];

/** The console's people endpoints: search, one person, and what helpdesk and admins do to them. */
export const adminPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/me",
    {
      config: { permission: "console.enter", subject: "self" },
      schema: {
        tags,
        summary: "The operator's roles",
        description: "Who is using the console and what they may do. 403 for a person without a console role.",
        response: { 200: adminMeSchema, ...refusals },
      },
    },
    async (request) => {
      const operator = operatorOf(request);
      const { user } = operator.session;
      return {
        username: user.username,
        fullName: user.full_name,
        roles: operator.roles,
        unitRoles: operator.unitRoles.map(heldUnitRoleView),
        permissions: permissionsOf([...operator.roles, ...operator.unitRoles.map((held) => held.role)]),
      };
    },
  );

  app.get(
    "/api/admin/people",
    {
      config: { permission: "people.view", subject: "list" },
      schema: {
        tags,
        summary: "Search people",
        description:
          "Every word of `q` must appear in the name, username, e-mail, student or employee id (when every " +
          "word is one or two letters, at the start of a word); a whole ten-digit tax id finds its holder " +
          "(never a part of one). 25 a page: exact usernames, e-mails and ids first, then names beginning " +
          "with the words, then names beginning with them with the first two words swapped, then the rest; " +
          "by name within each. `total` counts the matches up to 1,000 (`totalCapped` past it).",
        querystring: peopleQuerySchema,
        response: { 200: peoplePageSchema, ...refusals },
      },
    },
    async (request) => {
      const { q, status, app: applicationId, page } = request.query;
      const unitIds = unitFilterOf(operatorOf(request).reach);
      const result = await searchPeople(app.db, { query: q, status, applicationId, unitIds, page });
      // Each person's units, within the reach alone: a unit role does not learn of a unit it does not reach.
      const seen = result.people.flatMap((person) => person.unitIds).filter((id) => !unitIds || unitIds.includes(id));
      const units = new Map((await unitsByIds(app.db, seen)).map((unit) => [unit.id, unit]));
      const people = result.people.map(({ unitIds: held, ...person }) => ({
        ...person,
        units: held
          .flatMap((id) => {
            const unit = units.get(id);
            return unit ? [{ code: unit.code, nameUk: unit.name_uk, nameEn: unit.name_en }] : [];
          })
          .sort((left, right) => left.code.localeCompare(right.code)),
      }));
      return { ...result, people, page };
    },
  );

  app.get(
    "/api/admin/people/:id",
    {
      config: { permission: "people.view", subject: "person" },
      schema: {
        tags,
        summary: "One person",
        description: "Profile, status, applications, live sessions, sign-in history, throttling, Google links.",
        params: personIdParamsSchema,
        response: { 200: personDetailSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => personDetail(app, await requirePerson(app.db, request.params.id)),
  );

  app.post(
    "/api/admin/people/:id/profile",
    {
      config: { permission: "people.edit", subject: "person.act" },
      schema: {
        tags,
        summary: "Change a person's profile",
        description: "Fields left out stay; null clears. The rules of `user create` apply (400 with details).",
        params: personIdParamsSchema,
        body: personChangesRequestSchema,
        response: {
          200: personDetailSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          ...refusals,
        },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const updated = await updateProfile(app.db, app.passwordHasher, person, request.body);
      await auditByOperator(request, {
        type: "person_updated",
        result: "success",
        userId: person.id,
        reason: Object.keys(request.body).sort().join(","),
      });
      return personDetail(app, updated);
    },
  );

  app.post(
    "/api/admin/people/:id/status",
    {
      config: { permission: "people.status", subject: "person.act" },
      schema: {
        tags,
        summary: "Disable or enable a person",
        description: "Disabling ends every session and every application's tokens at once.",
        params: personIdParamsSchema,
        body: personStatusRequestSchema,
        response: { 200: adminActionResultSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const { status } = request.body;
      let ended = 0;
      if (status === "disabled") {
        ended = await disableUser(
          { db: app.db, now: app.clock(), signOut: app.signOut },
          person.id,
          operatorAndOrigin(request),
        );
      } else {
        await updateUser(app.db, person.id, { status: "active" });
      }
      await auditByOperator(request, {
        type: status === "disabled" ? "person_disabled" : "person_enabled",
        result: "success",
        userId: person.id,
      });
      return { done: true, count: ended };
    },
  );

  app.post(
    "/api/admin/people/:id/unlock",
    {
      config: { permission: "people.unlock", subject: "person.act" },
      schema: {
        tags,
        summary: "Unlock a person",
        description: "Forgets strangers' failed guesses on the account: sign-in, Wi-Fi and LDAP (as `user unlock`).",
        params: personIdParamsSchema,
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const secrets = { sessionSecret: app.config.sessionSecret, pairwiseSalt: app.config.saml.pairwiseSalt };
      const lifted = await unlockPerson(app.db, secrets, person);
      await auditByOperator(request, {
        type: "account_unlocked",
        result: "success",
        userId: person.id,
        reason: lifted ? "operator" : "operator.not_locked",
      });
      return { done: lifted };
    },
  );

  app.post(
    "/api/admin/people/:id/sessions/end",
    {
      config: { permission: "people.end_sessions", subject: "person.act" },
      schema: {
        tags,
        summary: "End a person's sessions",
        description: "Signs every browser of the person out, with their OpenID Connect sessions.",
        params: personIdParamsSchema,
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const ended = await endSessions(
        { db: app.db, now: app.clock(), signOut: app.signOut },
        { userId: person.id },
        { reason: "operator", ...operatorAndOrigin(request) },
      );
      return { done: true, count: ended };
    },
  );

  for (const action of ["grant", "revoke"] as const) {
    app.post(
      `/api/admin/people/:id/access/${action}`,
      {
        config: { permission: "people.access", subject: "person.act" },
        schema: {
          tags,
          summary: action === "grant" ? "Give a person access to an application" : "End a person's access",
          description: "As `user grant` / `user revoke`; revoking also ends the application's tokens for them.",
          params: personIdParamsSchema,
          body: applicationIdRequestSchema,
          response: { 200: adminActionResultSchema, 404: errorBodySchema, ...refusals },
        },
      },
      async (request) => {
        const person = await requirePersonToActOn(request, request.params.id);
        const application = await findApplicationById(app.db, request.body.applicationId);
        if (!application) throw new AppError("app.not_found");
        if (action === "grant") await grantAccess(app.db, person.id, application.id);
        else {
          await revokeAccess(app.db, person.id, application.id);
          await revokeOidcGrants(app.db, { userId: person.id, clientId: application.id });
        }
        await auditByOperator(request, {
          type: action === "grant" ? "access_granted" : "access_revoked",
          result: "success",
          userId: person.id,
          applicationId: application.id,
        });
        return { done: true };
      },
    );
  }
};
