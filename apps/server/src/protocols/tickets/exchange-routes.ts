import formbody from "@fastify/formbody";
import { errorBodySchema, type TicketResponse, ticketAuthMethod, ticketResponseSchema } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { recordIntegrationFailure } from "../../model/developers/health.ts";
import { matchingSecret, noteSecretUse } from "../../model/developers/secrets.ts";
import { rolesTicketData } from "../../model/people/profile.ts";
import { acrOf, signInAmr } from "../../model/sessions/strength.ts";
import { consumeTicket } from "../../model/tickets/store.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, countAuditEvent, requestAuditRow } from "../../platform/http/audit.ts";
import { compiledSerializerCompiler } from "../../platform/http/compiled-serializer.ts";
import { basicCredentials } from "./app-credentials.ts";
import { type ExchangeFields, exchangeFields, exchangeValidatorCompiler } from "./exchange-fields.ts";

const description =
  "Server-to-server: an application's backend redeems the `ticketId` its callback received. Application " +
  "credentials as `appId` and `appSecret` parameters (the form existing sites use), in " +
  "`Authorization: Basic base64(appId:appSecret)`, or in a JSON or form POST body. A ticket works once, " +
  "only for its own application, for TICKET_TTL_SECONDS. Every failure is the same 401 `ticket.invalid`. " +
  "`data.USER_ID` is the person's stable id (the OpenID Connect `sub`); `data.TAX_ID` is empty unless the " +
  "application is allowed the tax id.";

async function redeem(request: FastifyRequest, presented: ExchangeFields): Promise<TicketResponse> {
  const { db, clock } = request.server;
  const basic = basicCredentials(request);
  const appId = presented.appId ?? basic.appId;
  const application = appId ? await cachedApplicationById(request.server.applicationCache, db, appId) : undefined;
  // The current secret, or the one it replaced while their overlap lasts (issue 60).
  const matched = matchingSecret(application, presented.appSecret ?? basic.appSecret ?? "", clock());
  const secretOk = matched !== undefined;
  const suspended = application?.suspended_at != null;
  if (!application || !secretOk || !presented.ticketId || suspended) {
    await audit(request, {
      type: "ticket_exchange",
      result: "failure",
      applicationId: application?.id,
      reason: application && !secretOk ? "app.wrong_secret" : "ticket.invalid",
    });
    // The owners' health view says what went wrong; the caller learns only the one 401.
    if (application) {
      const reason = !secretOk ? "wrong_secret" : suspended ? "suspended" : "ticket_invalid";
      await recordIntegrationFailure(db, application.id, "ticket", reason);
    }
    throw new AppError("ticket.invalid");
  }
  const now = clock();
  const success = { type: "ticket_exchange", result: "success", applicationId: application.id } as const;
  const redeemed = await consumeTicket(db, presented.ticketId, application.id, now, requestAuditRow(request, success));
  if (!redeemed) {
    await audit(request, {
      type: "ticket_exchange",
      result: "failure",
      applicationId: application.id,
      reason: "ticket.invalid",
    });
    // Expired, already used, or another application's: the same fix (redeem each ticket once, at once).
    await recordIntegrationFailure(db, application.id, "ticket", "ticket_invalid");
    throw new AppError("ticket.invalid");
  }
  const { ticket, user, roles } = redeemed;
  await noteSecretUse(db, application.id, matched, now);
  countAuditEvent(request, { ...success, authMethod: ticket.auth_method, userId: user.id });
  // A ticket from before migration 0172 has no values: its method's own.
  const amr = signInAmr(ticket.auth_method, ticket.amr);
  return {
    id: ticket.id,
    created: ticket.created_at.toISOString(),
    applicationId: application.id,
    traceId: ticket.trace_id,
    data: {
      USER_ID: user.id,
      NAME: user.full_name,
      // Only to applications allowed it (applications.release_tax_id); the key stays, empty, for the others.
      TAX_ID: application.release_tax_id ? (user.tax_id ?? "") : "",
      STUDENT_ID: user.student_id ?? "",
      EMPLOYEE_ID: user.employee_id ?? "",
      AUTH_METHOD: ticketAuthMethod(ticket.auth_method),
      TRACE_ID: ticket.trace_id,
      TIME_STAMP: now.toISOString(),
      AUTH_AMR: amr.join(" "),
      AUTH_ACR: acrOf(amr),
      ...rolesTicketData(roles),
    },
  };
}

/** The KPI ID ticket protocol: an application learns who signed in. */
export const ticketExchangeRoutes: FastifyPluginAsyncZod = async (app) => {
  // Form bodies only here, where servers post them; the browser-facing API stays JSON-only.
  await app.register(formbody, { bodyLimit: 8 * 1024 });

  const response = { 200: ticketResponseSchema, 401: errorBodySchema };
  app.get(
    "/api/ticket",
    {
      schema: {
        tags: ["applications"],
        summary: "Redeem a ticket",
        description,
        querystring: exchangeFields,
        response,
      },
      validatorCompiler: exchangeValidatorCompiler,
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => redeem(request, request.query),
  );
  app.post(
    "/api/ticket",
    {
      config: { csrf: false },
      schema: {
        tags: ["applications"],
        summary: "Redeem a ticket (secret in the body or header)",
        description,
        querystring: exchangeFields,
        body: exchangeFields.optional(),
        response,
      },
      // Every connected site's server calls it at each sign-in: its answer is written by a function compiled from
      // the schema, not checked against it again (the answer's type fixes its shape); its fields are read the same way.
      validatorCompiler: exchangeValidatorCompiler,
      serializerCompiler: compiledSerializerCompiler,
    },
    async (request) => {
      const { query, body } = request;
      return redeem(request, {
        ticketId: body?.ticketId ?? query.ticketId,
        appId: body?.appId ?? query.appId,
        appSecret: body?.appSecret ?? query.appSecret,
      });
    },
  );
};
