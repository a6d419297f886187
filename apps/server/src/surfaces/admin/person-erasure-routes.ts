import {
  errorBodySchema,
  personErasureRequestSchema,
  personErasureResultSchema,
  personIdParamsSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { assertErasable } from "../../model/privacy/erase.ts";
import { erasePersonOnRequest } from "../../model/privacy/erase-request.ts";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { AppError } from "../../platform/errors.ts";
import { guardConsoleRoutes, operatorAndOrigin, requirePersonToActOn } from "./plugin.ts";

/** An admin's erasure of one person on request (docs/privacy.md): the console's form of `user erase`. */
export const adminPersonErasureRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.post(
    "/api/admin/people/:id/erase",
    {
      config: { permission: "people.erase", subject: "person.act" },
      schema: {
        tags: ["admin"],
        summary: "Erase a person's personal data",
        description:
          "As `user erase`: the profile, records, sign-in methods, sessions, application tokens, consents and " +
          "console roles go; the audit trail stays without addresses, browsers or details; the username is never " +
          "given again. `username` must repeat the person's username (400 `admin.erase_not_confirmed`). 409 " +
          "`admin.person_erased`, `admin.erase_self`, `admin.erase_last_admin`. Audited (`person_erased`) with " +
          "the counts the answer gives.",
        params: personIdParamsSchema,
        body: personErasureRequestSchema,
        response: {
          200: personErasureResultSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      if (request.body.username.trim().toLowerCase() !== person.username.toLowerCase()) {
        throw new AppError("admin.erase_not_confirmed");
      }
      const { actorId, ip, userAgent } = operatorAndOrigin(request);
      // Refused before anything ends (the transaction checks again, under the row's lock).
      await assertErasable(app.db, person, actorId);
      // Applications hear of the ended sessions (back-channel logout) before the person's row loses its name.
      const sessionsEnded = await endSessions(
        { db: app.db, now: app.clock(), signOut: app.signOut },
        { userId: person.id },
        { reason: "erased", actorId, ip, userAgent },
      );
      const erased = await erasePersonOnRequest(app.db, person, {
        actorId,
        via: "console",
        ip,
        userAgent,
        now: app.clock(),
        sessionsEnded,
      });
      return { done: true as const, erased };
    },
  );
};
