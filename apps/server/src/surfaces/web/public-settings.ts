import type { PublicSettings } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";

/** What the web app needs to know about this deployment: answered by /api/settings and written into the page. */
export function publicSettings(app: FastifyInstance): PublicSettings {
  return {
    publicUrl: app.config.publicUrl,
    supportEmail: app.config.support.email,
    supportBotEmployeesUrl: app.config.support.botEmployeesUrl,
    supportBotStudentsUrl: app.config.support.botStudentsUrl,
    googleEnabled: app.features.google,
    diiaEnabled: app.features.diia,
    bankIdEnabled: app.features.bankId,
    bankIdBankPicker: app.features.bankIdBankPicker,
    institutionsEnabled: app.config.saml.visitors.federations.length > 0,
    emailRecoveryEnabled: app.mailer.enabled,
    sandbox: app.config.sandbox,
    reauthMaxAgeSeconds: app.config.reauthMaxAgeSeconds,
  };
}
