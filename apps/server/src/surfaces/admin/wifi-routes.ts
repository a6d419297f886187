import {
  adminActionResultSchema,
  adminWifiSchema,
  errorBodySchema,
  personIdParamsSchema,
  wifiStatsSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { listNetworkPasswords, revokeAllNetworkPasswords, revokeNetworkPassword } from "../../model/wifi/passwords.ts";
import { isWifiOff, turnWifiOff, turnWifiOn } from "../../model/wifi/people.ts";
import { wifiFigures } from "../../model/wifi/stats.ts";
import { wifiPasswordView } from "../../model/wifi/view.ts";
import { auditByOperator, guardConsoleRoutes, operatorOf, requirePersonToActOn } from "./plugin.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ["admin"];

/** The console's Wi-Fi: figures for operators, and a person's devices for helpdesk (the CLI's `wifi …` beside). */
export const adminWifiRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/wifi/stats",
    {
      config: { permission: "service.view", subject: "university" },
      schema: {
        tags,
        summary: "Wi-Fi sign-ins per day and refusals by reason (last 14 days)",
        response: { 200: wifiStatsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async () => wifiFigures(app.db, app.clock()),
  );

  app.get(
    "/api/admin/people/:id/wifi",
    {
      config: { permission: "people.view", subject: "person" },
      schema: {
        tags,
        summary: "A person's Wi-Fi devices and whether their Wi-Fi is off",
        params: personIdParamsSchema,
        response: { 200: adminWifiSchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const passwords = await listNetworkPasswords(app.db, person.id);
      return {
        passwords: passwords.map((each) => wifiPasswordView(each, person.username, app.config.wifi.realm)),
        wifiOff: await isWifiOff(app.db, person.id),
      };
    },
  );

  app.post(
    "/api/admin/people/:id/wifi/passwords/:passwordId/revoke",
    {
      config: { permission: "people.recovery", subject: "person.act" },
      schema: {
        tags,
        summary: "Revoke one of a person's Wi-Fi passwords",
        params: personIdParamsSchema.extend({ passwordId: z.uuid() }),
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      // Read before the revocation deletes them; disconnected once it is done.
      const connected = await app.wifiDisconnects.sessionsOf({
        userId: person.id,
        passwordId: request.params.passwordId,
      });
      await revokeNetworkPassword(app.db, person.id, request.params.passwordId);
      await auditByOperator(request, { type: "wifi_password_revoked", result: "success", userId: person.id });
      void app.wifiDisconnects.send(connected, "password_revoked", operatorOf(request).userId);
      return { done: true, count: 1 };
    },
  );

  app.post(
    "/api/admin/people/:id/wifi/off",
    {
      config: { permission: "people.recovery", subject: "person.act" },
      schema: {
        tags,
        summary: "Turn a person's Wi-Fi off (and revoke every Wi-Fi password when asked)",
        description:
          "No network password of theirs works until Wi-Fi is turned on again, and their connected devices are " +
          "disconnected (RFC 5176, through FreeRADIUS). count: passwords revoked.",
        params: personIdParamsSchema,
        body: z.object({ revokePasswords: z.boolean().optional() }).optional(),
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const connected = await app.wifiDisconnects.sessionsOf({ userId: person.id });
      await turnWifiOff(app.db, person.id, operatorOf(request).userId, app.clock());
      const revoked = request.body?.revokePasswords ? await revokeAllNetworkPasswords(app.db, person.id) : 0;
      await auditByOperator(request, { type: "wifi_turned_off", result: "success", userId: person.id });
      void app.wifiDisconnects.send(connected, "wifi_off", operatorOf(request).userId);
      return { done: true, count: revoked };
    },
  );

  app.post(
    "/api/admin/people/:id/wifi/on",
    {
      config: { permission: "people.recovery", subject: "person.act" },
      schema: {
        tags,
        summary: "Turn a person's Wi-Fi on again",
        params: personIdParamsSchema,
        body: z.object({}).optional(),
        response: { 200: adminActionResultSchema, ...refusals },
      },
    },
    async (request) => {
      const person = await requirePersonToActOn(request, request.params.id);
      const changed = await turnWifiOn(app.db, person.id);
      await auditByOperator(request, { type: "wifi_turned_on", result: "success", userId: person.id });
      return { done: changed };
    },
  );
};
