import { adminActionResultSchema, defaultLanguage, errorBodySchema, personIdParamsSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { AppError } from "../../platform/errors.ts";
import { sendInBackground } from "../../platform/mail/mailer.ts";
import { renderMessage } from "../../platform/mail/messages.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import { resetSecondFactor } from "../../sign-in/mfa/reset.ts";
import { secondFactorResetNotice } from "../../sign-in/mfa/reset-notice.ts";
import { issueAndSendLink } from "../../sign-in/recovery/email.ts";
import { auditByOperator, guardConsoleRoutes, operatorAndOrigin, requirePersonToActOn } from "./plugin.ts";

// 409 `admin.person_erased`: nothing is done to an erased person.
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ["admin"];

/** Helpdesk's recovery tools on the person screen: the same service functions as `user reset-mfa` and "Forgot password?". */
export const adminPersonRecoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.post(
    "/api/admin/people/:id/second-factor/reset",
    {
      config: { permission: "people.recovery", subject: "person.act" },
      schema: {
        tags,
        summary: "Reset a person's second factor",
        description:
          "As `user reset-mfa`: the authenticator app, recovery codes and passkeys go and every session ends " +
          "(count: sessions ended). The person is told by mail at their verified address.",
        params: personIdParamsSchema,
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const { sessionsEnded } = await resetSecondFactor(
        app.db,
        person.id,
        (event) => auditByOperator(request, event),
        (userId) =>
          endSessions(
            { db: app.db, now: app.clock(), signOut: app.signOut },
            { userId },
            { reason: "operator.reset_mfa", ...operatorAndOrigin(request) },
          ),
      );
      const to = verifiedAddressOf(person);
      const language = person.language ?? defaultLanguage;
      if (to) {
        const notice = secondFactorResetNotice(language, app.config.support.email);
        sendInBackground(app, { to, ...renderMessage(notice, language) });
      }
      return { done: true, count: sessionsEnded };
    },
  );

  app.post(
    "/api/admin/people/:id/recovery-mail",
    {
      config: { permission: "people.recovery", subject: "person.act" },
      schema: {
        tags,
        summary: "Send a person a password-reset link",
        description:
          'The mail "Forgot password?" sends, to the person\'s confirmed address, in the language of their ' +
          "last sign-in. 409 `admin.no_verified_address` when they have none, `admin.person_disabled` when disabled.",
        params: personIdParamsSchema,
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      if (!app.mailer.enabled) throw new AppError("recovery.not_available");
      if (person.status !== "active") throw new AppError("admin.person_disabled");
      const to = verifiedAddressOf(person);
      if (!to) throw new AppError("admin.no_verified_address");
      await issueAndSendLink(app, person.id, to, person.language ?? defaultLanguage);
      await auditByOperator(request, {
        type: "password_reset_request",
        result: "success",
        userId: person.id,
        reason: "operator",
      });
      return { done: true };
    },
  );
};
