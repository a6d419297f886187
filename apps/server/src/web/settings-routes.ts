import { publicSettingsSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** What the web app needs to know about this deployment before it renders. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/settings",
    {
      schema: { tags: ["web"], summary: "Public settings of this deployment", response: { 200: publicSettingsSchema } },
    },
    async () => ({
      publicUrl: app.config.publicUrl,
      supportEmail: app.config.support.email,
      supportBotEmployeesUrl: app.config.support.botEmployeesUrl,
      supportBotStudentsUrl: app.config.support.botStudentsUrl,
      googleEnabled: app.features.google,
      diiaEnabled: app.features.diia,
      sandbox: app.config.sandbox,
    }),
  );
};
