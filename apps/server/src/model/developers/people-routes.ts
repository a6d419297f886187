import {
  developerApplicationParamsSchema,
  developerApplicationSchema,
  developerPersonRemovalSchema,
  developerPersonRequestSchema,
  errorBodySchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { audit } from "../../platform/audit/record.ts";
import { requireSession } from "../sessions/current.ts";
import { type ApplicationRole, addPerson, removePerson } from "./people.ts";
import { ownedApplication } from "./store.ts";
import { applicationDetail } from "./view.ts";

const tags = ["developers"];
const refusals = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const roles: Record<"owners" | "testers", ApplicationRole> = { owners: "owner", testers: "tester" };

/** Co-owners and testers of a person's own application, named by username or e-mail address. */
export const developerPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [path, role] of Object.entries(roles)) {
    app.post(
      `/api/developers/applications/:id/${path}`,
      {
        schema: {
          tags,
          summary: role === "owner" ? "Add a co-owner" : "Add a tester",
          description:
            "Names one active person by exact username or e-mail address; the answer shows only their username. " +
            "404 `developer.person_not_found` otherwise (an address several people share names nobody)" +
            (role === "tester" ? "; 409 `developer.tester_limit` past 25 testers." : "."),
          params: developerApplicationParamsSchema,
          body: developerPersonRequestSchema,
          response: { 200: developerApplicationSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const { userId } = await requireSession(request, reply);
        const row = await ownedApplication(app.db, userId, request.params.id);
        const added = await addPerson(app.db, row.id, role, request.body.person);
        await audit(request, {
          type: "application_people_changed",
          result: "success",
          userId,
          applicationId: row.id,
          details: { role, change: "added", person: added },
        });
        return applicationDetail(app.db, row, userId);
      },
    );

    app.post(
      `/api/developers/applications/:id/${path}/remove`,
      {
        schema: {
          tags,
          summary: role === "owner" ? "Remove a co-owner" : "Remove a tester",
          description:
            role === "owner"
              ? "An owner may remove any owner, themselves too, but not the last (409 `developer.last_owner`)."
              : "The person can no longer sign in while the application is not live.",
          params: developerApplicationParamsSchema,
          body: developerPersonRemovalSchema,
          response: { 200: developerApplicationSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const { userId } = await requireSession(request, reply);
        const row = await ownedApplication(app.db, userId, request.params.id);
        if (await removePerson(app.db, row.id, role, request.body.userId)) {
          await audit(request, {
            type: "application_people_changed",
            result: "success",
            userId,
            applicationId: row.id,
            details: { role, change: "removed", person: request.body.userId },
          });
        }
        // An owner who removed themselves no longer sees it: the list is theirs to go back to.
        return applicationDetail(app.db, row, userId);
      },
    );
  }
};
