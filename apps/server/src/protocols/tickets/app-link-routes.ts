import { appLinkCheckSchema, appLinkQuerySchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { findApplicationById } from "../../model/apps/queries.ts";
import { applicationStage } from "../../model/developers/testing.ts";
import { chosenCallback } from "./callbacks.ts";

/**
 * What the sign-in page needs to know before anyone signs in: whether the application the link names
 * exists, and whether its redirectUri is registered. Application ids are public (every sign-in button
 * carries one), so saying whether one exists tells nothing secret; the callbacks themselves are not told.
 */
export const appLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/app-link",
    {
      schema: {
        tags: ["applications"],
        summary: "Check a sign-in link's application",
        description:
          "`known`: appId names a registered application. `redirectUriRegistered`: redirectUri, when given, is " +
          "one of its registered callbacks exactly (true when none is given). Odd or repeated values count as missing. " +
          "For a known application its `title`, `titleEn` and `stage` (`reviewed` or `testing`), which the sign-in " +
          "page shows (titles are public: every consent screen shows them).",
        querystring: appLinkQuerySchema,
        response: { 200: appLinkCheckSchema },
      },
    },
    async (request) => {
      const { appId, redirectUri } = request.query;
      const application = appId ? await findApplicationById(app.db, appId) : undefined;
      if (!application) return { known: false, redirectUriRegistered: false };
      return {
        known: true,
        redirectUriRegistered: chosenCallback(application, redirectUri) !== undefined,
        title: application.title,
        titleEn: application.title_en,
        stage: applicationStage(application),
      };
    },
  );
};
