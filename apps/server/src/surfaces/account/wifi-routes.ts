import {
  createdWifiPasswordSchema,
  createWifiPasswordSchema,
  errorBodySchema,
  renameWifiPasswordSchema,
  wifiPasswordLimit,
  wifiPasswordsSchema,
} from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import {
  createNetworkPassword,
  listNetworkPasswords,
  renameNetworkPassword,
  revokeNetworkPassword,
} from "../../model/wifi/passwords.ts";
import { isWifiOff } from "../../model/wifi/people.ts";
import { wifiIdentity, wifiPasswordView } from "../../model/wifi/view.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["account"];
const idParams = z.object({ id: z.uuid() });
const done = z.object({ ok: z.literal(true) });

/** Network passwords exist only where FreeRADIUS asks KPI ID (RADIUS_REST_SECRET set). */
function requireWifi(request: FastifyRequest): void {
  if (request.server.config.wifi.restSecret === undefined) throw new AppError("wifi.not_configured");
}

/** The account page's Wi-Fi passwords: one per device, generated, shown once (docs/eduroam.md). */
export const accountWifiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/account/wifi",
    {
      schema: {
        tags,
        summary: "My Wi-Fi (eduroam) passwords",
        description:
          "Each device's network password (never the secret), its latest uses (when, which access point), the " +
          "identities to type and whether an operator turned my Wi-Fi off. 404 `wifi.not_configured` when the " +
          "service has no RADIUS server.",
        response: { 200: wifiPasswordsSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireWifi(request);
      const session = await requireSession(request, reply);
      const { realm, ssid } = app.config.wifi;
      const username = session.user.username;
      const passwords = await listNetworkPasswords(app.db, session.userId);
      return {
        passwords: passwords.map((password) => wifiPasswordView(password, username, realm)),
        identity: wifiIdentity(username, realm),
        anonymousIdentity: `anonymous@${realm}`,
        ssid,
        wifiOff: await isWifiOff(app.db, session.userId),
        limit: wifiPasswordLimit,
      };
    },
  );

  app.post(
    "/api/account/wifi",
    {
      schema: {
        tags,
        summary: "Create a Wi-Fi password for a device",
        description:
          "Needs a sign-in within REAUTH_MAX_AGE_SECONDS (403 `auth.reauth_required`). The password is generated " +
          `and answered once; at most ${wifiPasswordLimit} (409 \`wifi.limit_reached\`).`,
        body: createWifiPasswordSchema,
        response: {
          200: createdWifiPasswordSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      requireWifi(request);
      const session = await requireSession(request, reply);
      requireRecentSignIn(session, reauthWindow(request));
      const created = await createNetworkPassword(
        app.db,
        app.config.sessionSecrets,
        session.userId,
        request.body.name,
        app.clock(),
      );
      await audit(request, { type: "wifi_password_created", result: "success", userId: session.userId });
      const identity = wifiIdentity(session.user.username, app.config.wifi.realm, created.device);
      return { id: created.id, name: created.name, identity, password: created.password };
    },
  );

  app.post(
    "/api/account/wifi/:id/name",
    {
      schema: {
        tags,
        summary: "Rename a Wi-Fi password",
        params: idParams,
        body: renameWifiPasswordSchema,
        response: { 200: done, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireWifi(request);
      const session = await requireSession(request, reply);
      await renameNetworkPassword(app.db, session.userId, request.params.id, request.body.name);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/account/wifi/:id/revoke",
    {
      schema: {
        tags,
        summary: "Revoke a Wi-Fi password",
        description:
          "It stops working at the device's next authentication, and a device connected with it now is " +
          "disconnected (RFC 5176, through FreeRADIUS).",
        params: idParams,
        response: { 200: done, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireWifi(request);
      const session = await requireSession(request, reply);
      // Read before the revocation deletes them; disconnected once it is done.
      const connected = await app.wifiDisconnects.sessionsOf({ userId: session.userId, passwordId: request.params.id });
      await revokeNetworkPassword(app.db, session.userId, request.params.id);
      await audit(request, { type: "wifi_password_revoked", result: "success", userId: session.userId });
      void app.wifiDisconnects.send(connected, "password_revoked");
      return { ok: true as const };
    },
  );
};
