import { publicSettingsSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { publicSettings } from "./public-settings.ts";

/** What the web app needs to know about this deployment before it renders (the page carries it too). */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/settings",
    {
      schema: { tags: ["web"], summary: "Public settings of this deployment", response: { 200: publicSettingsSchema } },
    },
    async () => publicSettings(app),
  );
};
