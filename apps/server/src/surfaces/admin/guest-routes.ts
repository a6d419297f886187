import { adminGuestsQuerySchema, adminGuestsSchema, errorBodySchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { guestsForConsole } from "../../model/guests/views.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { guardConsoleRoutes, operatorOf } from "./plugin.ts";

/** The console's guests: every sponsored guest with their sponsor, units and end (docs/visitors.md). */
export const adminGuestRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/guests",
    {
      config: { permission: "people.view", subject: "list" },
      schema: {
        tags: ["admin"],
        summary: "Guests by sponsor and unit",
        description:
          "Sponsored guests, current first, at most 1,000: `sponsor` (username or id), `unit` (that unit and the " +
          "units below it), `state` (invited, active, ended). Guests handed to the operators have no sponsor. A unit " +
          "role sees the guests attached to the units it reaches.",
        querystring: adminGuestsQuerySchema,
        response: { 200: adminGuestsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      // A unit's console role sees the guests attached to the units it reaches (issue 79), whoever sponsored them.
      const reach = operatorOf(request).reach;
      const inUnits = reach.everywhere ? undefined : reach.unitIds;
      const { sponsor, unit, state } = request.query;
      const english = requestLanguage(request) === "en";
      const filter = { sponsorNamed: sponsor, unitId: unit, state, inUnits };
      return { guests: await guestsForConsole(app.db, filter, english) };
    },
  );
};
