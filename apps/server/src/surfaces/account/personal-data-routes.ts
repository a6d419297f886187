import { errorBodySchema, personalDataSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { requireSession } from "../../sign-in/session/current.ts";
import { personalDataOf } from "./personal-data.ts";

/** The account page's "Download my data" (docs/privacy.md). */
export const accountPersonalDataRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/account/personal-data",
    {
      schema: {
        tags: ["account"],
        summary: "Download my data",
        description:
          "Everything KPI ID keeps about the signed-in person as one JSON file: profile (with the tax id), " +
          "student records and positions, sign-in methods without their secrets, sessions, connected " +
          "applications, consents, the last year of security activity, Wi-Fi and LDAP application passwords " +
          "(without secrets), the developers' page's applications, home-institution identities, a guest's stay and " +
          "the guests the person sponsors, identity documents; each section labelled in Ukrainian and English. Needs a recent sign-in (it holds the tax id): otherwise 403 auth.reauth_required. " +
          "Another site's request (`Sec-Fetch-Site: cross-site` or `same-site`) is refused with 403 request.csrf_rejected.",
        response: { 200: personalDataSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      // Only KPI ID's own page asks for this; another site's fetch, image or frame learns nothing, not even its size.
      const site = request.headers["sec-fetch-site"];
      if (site === "cross-site" || site === "same-site") throw new AppError("request.csrf_rejected");
      const session = await requireSession(request, reply);
      requireRecentSignIn(session, reauthWindow(request));
      const now = app.clock();
      const data = await personalDataOf(app.db, session.userId, session.id, now, app.config.wifi.realm);
      // A copy of everything KPI ID holds (the tax id too) left the service: the person's activity shows it.
      await audit(request, { type: "personal_data_exported", result: "success", userId: session.userId });
      const file = `kpi-id-${session.user.username}-${now.toISOString().slice(0, 10)}.json`.replace(/[^\w.-]/g, "_");
      reply.header("content-disposition", `attachment; filename="${file}"`);
      return data;
    },
  );
};
