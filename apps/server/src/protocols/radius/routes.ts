import { errorBodySchema, radiusPaths, text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { chargeableUserIdentity, wifiAffiliation } from "../../model/wifi/people.ts";
import {
  authenticatePap,
  authorizeMschap,
  mschapRefused,
  recordAccepted,
  type WifiContext,
  type WifiDecision,
  wifiAuditEvent,
} from "../../model/wifi/radius.ts";
import { wifiDeviceKey } from "../../model/wifi/secrets.ts";
import { wifiSessionClass } from "../../model/wifi/sessions.ts";
import { recordAuditEvent } from "../../platform/audit/record.ts";
import { countAuditEvent } from "../../platform/http/audit.ts";
import { accountingRoute } from "./accounting.ts";
import {
  acceptAttributes,
  attributeText,
  methodOf,
  type RestAttributes,
  radiusFacts,
  restBodySchema,
} from "./attributes.ts";
import { radiusSecretNote, requireRadiusServer } from "./caller.ts";

const tags = ["radius"];
const body = restBodySchema;
const answer = z.record(text(), text().or(z.object({ value: text(), do_xlat: z.boolean() })));

export { radiusSecretHeader } from "./caller.ts";

const secretNote = radiusSecretNote;

function wifiContext(request: FastifyRequest): WifiContext {
  const { db, config, clock } = request.server;
  return {
    db,
    ring: config.sessionSecrets,
    deviceKey: wifiDeviceKey(config.saml.pairwiseSalt),
    realm: config.wifi.realm,
    now: clock(),
  };
}

async function audit(request: FastifyRequest, decision: WifiDecision, attributes: RestAttributes, method: string) {
  const facts = radiusFacts(attributes);
  if (!facts) return;
  const event = wifiAuditEvent(decision, facts, method, request.server.clock());
  await recordAuditEvent(request.server.db, event);
  countAuditEvent(request, event);
}

/** The options of a call that answers 2xx with attributes or 401 to refuse (authorize, authenticate). */
const decidingRoute = (summary: string, description: string) => ({
  config: { csrf: false },
  schema: {
    tags,
    summary,
    description: `${secretNote}${description}`,
    body,
    response: { 200: answer, 401: errorBodySchema.or(z.object({})), 404: errorBodySchema },
  },
});

/** A refusal: 401, which the rest module turns into reject in authorize and authenticate. */
const refuse = (reply: FastifyReply) => reply.code(401).send({});

/** FreeRADIUS asks, KPI ID decides (docs/eduroam.md, "The rest endpoint"). */
export const radiusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    radiusPaths.authorize,
    decidingRoute(
      "FreeRADIUS authorize (PEAP-MSCHAPv2): the NT hash of the device's network password",
      "200 with control:NT-Password (the NT hash of the password the identity username+device@realm names) and " +
        "request:KPI-ID-Network-Password; 401: refused (recorded with its reason).",
    ),
    async (request, reply) => {
      requireRadiusServer(request);
      const facts = radiusFacts(request.body);
      if (!facts) return refuse(reply);
      const decision = await authorizeMschap(wifiContext(request), facts);
      if (!decision.accepted || decision.ntHash === undefined) {
        await audit(request, decision, request.body, "mschapv2");
        return refuse(reply);
      }
      return {
        // Marked secret in deploy/freeradius/dictionary, so FreeRADIUS's debug output never prints it; not expanded.
        "control:NT-Password": { value: `0x${decision.ntHash}`, do_xlat: false },
        "request:KPI-ID-Network-Password": decision.passwordId,
      };
    },
  );

  app.post(
    radiusPaths.authenticate,
    decidingRoute(
      "FreeRADIUS authenticate (TTLS/PAP): the network password",
      "200 with request:KPI-ID-Network-Password; 401: refused (recorded with its reason). Throttled per name " +
        "and per device like sign-ins.",
    ),
    async (request, reply) => {
      requireRadiusServer(request);
      const facts = radiusFacts(request.body);
      if (!facts) return refuse(reply);
      const decision = await authenticatePap(wifiContext(request), facts);
      if (!decision.accepted) {
        await audit(request, decision, request.body, "pap");
        return refuse(reply);
      }
      return { "request:KPI-ID-Network-Password": decision.passwordId };
    },
  );

  app.post(
    radiusPaths.postAuth,
    {
      config: { csrf: false },
      schema: {
        tags,
        summary: "FreeRADIUS post-auth: record the use; the VLAN and Chargeable-User-Identity",
        description: `${secretNote}result=Reject: FreeRADIUS refused an MSCHAPv2 answer (counted, 204). Otherwise the use is recorded and 200 answers reply:Tunnel-Type, Tunnel-Medium-Type, Tunnel-Private-Group-Id (WIFI_VLAN_*) and Chargeable-User-Identity when asked for, and Class (RFC 2865: the controller sends it back in accounting); 403 when the person may no longer use Wi-Fi.`,
        body,
        querystring: z.object({ result: text().max(20).optional() }),
        response: { 200: answer, 204: z.null(), 401: errorBodySchema, 403: z.object({}), 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      requireRadiusServer(request);
      const facts = radiusFacts(request.body);
      if (!facts) return reply.code(403).send({});
      const context = wifiContext(request);
      const method = methodOf(request.body);
      if (request.query.result?.toLowerCase() === "reject") {
        await audit(request, await mschapRefused(context, facts), request.body, method);
        return reply.code(204).send(null);
      }
      const decision = await recordAccepted(context, facts, method);
      await audit(request, decision, request.body, method);
      if (!decision.accepted) return reply.code(403).send({});
      const { wifi, saml } = request.server.config;
      const operator = attributeText(request.body, "Operator-Name") ?? wifi.operatorName;
      const wantsCui = attributeText(request.body, "Chargeable-User-Identity", 253) !== undefined;
      const cui = wantsCui ? chargeableUserIdentity(saml.pairwiseSalt, decision.userId, operator) : undefined;
      const sessionClass =
        decision.useId === undefined ? undefined : wifiSessionClass(context.deviceKey, decision.useId);
      return acceptAttributes(wifi.vlans, await wifiAffiliation(context.db, decision.userId), { cui, sessionClass });
    },
  );

  accountingRoute(app);
};
