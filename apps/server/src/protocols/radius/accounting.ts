import { errorBodySchema, radiusPaths } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { wifiDeviceKey } from "../../model/wifi/secrets.ts";
import { type AccountingFacts, recordAccounting } from "../../model/wifi/sessions.ts";
import { attributeText, type RestAttributes, restBodySchema } from "./attributes.ts";
import { radiusSecretNote, requireRadiusServer } from "./caller.ts";

type FastifyZod = Parameters<FastifyPluginAsyncZod>[0];

/** Acct-Status-Type as rlm_rest writes it: the value's name, or its number (RFC 2866, RFC 2869). */
const statuses: Record<string, AccountingFacts["status"]> = {
  start: "start",
  "1": "start",
  stop: "stop",
  "2": "stop",
  "interim-update": "interim",
  alive: "interim",
  "3": "interim",
  "accounting-on": "controller_restarted",
  "7": "controller_restarted",
  "accounting-off": "controller_restarted",
  "8": "controller_restarted",
};

/** An octets attribute (Class, Operator-NAS-Identifier) comes as 0x-hex; its text, when it is text we can store. */
function octetsText(body: RestAttributes, name: string): string | undefined {
  const value = attributeText(body, name, 2 + 2 * 253);
  if (value === undefined || !/^0x([0-9a-f]{2})*$/i.test(value)) return value;
  const decoded = Buffer.from(value.slice(2), "hex").toString("utf8");
  return decoded.includes("\u0000") || decoded.includes("\uFFFD") ? undefined : decoded;
}

export function accountingFacts(body: RestAttributes): AccountingFacts {
  return {
    status: statuses[attributeText(body, "Acct-Status-Type", 32)?.toLowerCase() ?? ""],
    controller: octetsText(body, "Operator-NAS-Identifier"),
    acctSessionId: attributeText(body, "Acct-Session-Id", 253),
    sessionClass: octetsText(body, "Class"),
    userName: attributeText(body, "User-Name", 253),
    callingStation: attributeText(body, "Calling-Station-Id", 64),
    nasIpAddress: attributeText(body, "NAS-IP-Address", 64) ?? attributeText(body, "NAS-IPv6-Address", 64),
    nasIdentifier: attributeText(body, "NAS-Identifier", 200),
  };
}

/**
 * FreeRADIUS's accounting section passes each Accounting-Request on (deploy/freeradius/sites-available/kpi-id):
 * KPI ID keeps where each device is connected, to disconnect it when access ends (protocols/radius/disconnect.ts).
 */
export function accountingRoute(app: FastifyZod): void {
  app.post(
    radiusPaths.accounting,
    {
      config: { csrf: false },
      schema: {
        tags: ["radius"],
        summary: "FreeRADIUS accounting: where a device is connected (Start, Interim-Update, Stop)",
        description: `${radiusSecretNote}Start and Interim-Update keep the session named by Operator-NAS-Identifier (the controller) and Acct-Session-Id, found by the Class KPI ID answered in post-auth; Stop ends it; Accounting-On/Off end every session of the controller. Always 204: accounting that is not ours is acknowledged and dropped.`,
        body: restBodySchema,
        response: { 204: z.null(), 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireRadiusServer(request);
      const { db, config, clock } = request.server;
      const facts = accountingFacts(request.body);
      const outcome = await recordAccounting(db, wifiDeviceKey(config.saml.pairwiseSalt), facts, clock());
      request.log.debug({ status: facts.status, controller: facts.controller, outcome }, "Wi-Fi accounting");
      return reply.code(204).send(null);
    },
  );
}
