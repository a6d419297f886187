import formbody from "@fastify/formbody";
import type { Element } from "@xmldom/xmldom";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { PostBindingContext } from "samlify/types/src/types.js";
import type { z } from "zod";
import { audit } from "../audit/record.ts";
import { AppError } from "../errors.ts";
import {
  type Binding,
  decodeXml,
  maxAuthnRequestBytes,
  requireSignatureOfRoot,
  SamlRequestRefused,
  signedOctets,
  textOf,
} from "./authn-request.ts";
import { samlEntities } from "./entities.ts";
import { samlPaths } from "./metadata.ts";
import { ns } from "./namespaces.ts";
import { sendPostForm } from "./post-form.ts";
import { childrenNamed, parseXml } from "./sp-metadata.ts";
import { findServiceProvider } from "./sp-registry.ts";
import { messageFields } from "./sso-routes.ts";
import { guardXml, XmlRefusedError } from "./xml-guard.ts";

type Fields = z.infer<typeof messageFields>;

function readLogoutRequest(xml: string) {
  guardXml(xml, { maxBytes: maxAuthnRequestBytes, allowComments: false });
  const root = parseXml(xml).documentElement as Element | null;
  if (!root || root.namespaceURI !== ns.samlp || root.localName !== "LogoutRequest")
    throw new XmlRefusedError("expected one samlp:LogoutRequest");
  const signatures = childrenNamed(root, ns.ds, "Signature");
  if (signatures.length > 0) requireSignatureOfRoot(root, signatures);
  return {
    issuer: textOf(childrenNamed(root, ns.saml, "Issuer")[0]),
    nameId: textOf(childrenNamed(root, ns.saml, "NameID")[0]),
    sessionIndexes: childrenNamed(root, ns.samlp, "SessionIndex").map((element) => textOf(element)),
  };
}

/**
 * SP-initiated Single Logout: a signed LogoutRequest ends the KPI ID session
 * the SP's session belongs to, and the SP gets a signed LogoutResponse.
 */
export const sloRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(formbody, { bodyLimit: 256 * 1024 });

  const receive = async (request: FastifyRequest, reply: FastifyReply, binding: Binding, fields: Fields) => {
    const { db, config, clock, saml } = app;
    const { signing } = await saml.currentKeys();
    if (!signing) throw new Error("no SAML signing key");
    const rawQuery = binding === "redirect" ? ((request.raw.url ?? "").split("?")[1] ?? "") : "";
    try {
      const xml = decodeXml({ binding, fields, rawQuery });
      const { issuer, nameId, sessionIndexes } = readLogoutRequest(xml);
      const sp = issuer ? await findServiceProvider(db, issuer, clock()) : undefined;
      if (!sp) throw new SamlRequestRefused("unknown service provider");
      const entities = samlEntities({
        idpEntityId: config.saml.entityId,
        ssoUrl: `${config.publicUrl}${samlPaths.sso}`,
        key: signing,
        sp,
      });
      const message =
        binding === "redirect"
          ? { query: fields, octetString: signedOctets(rawQuery) }
          : { body: { ...fields, SAMLRequest: Buffer.from(xml).toString("base64") } };
      const parsed = await entities.idp.parseLogoutRequest(entities.sp, binding, message).catch((error: unknown) => {
        throw new SamlRequestRefused(`the logout request failed verification: ${String(error)}`);
      });
      const ended = await db
        .deleteFrom("sessions")
        .where(
          "id",
          "in",
          db
            .selectFrom("saml_sessions")
            .select("session_id")
            .where("sp_entity_id", "=", sp.entity_id)
            .where("name_id", "=", nameId)
            .where("session_index", "in", sessionIndexes.length > 0 ? sessionIndexes : [""]),
        )
        .returning("user_id")
        .execute();
      for (const { user_id } of ended) await audit(request, { type: "logout", result: "success", userId: user_id });
      const info = { extract: parsed.extract };
      const relayState = fields.RelayState ?? "";
      // The SP's HTTP-Redirect logout endpoint when it has one, else its HTTP-POST one.
      if (typeof entities.sp.entityMeta.getSingleLogoutService("redirect") === "string")
        return reply.redirect(
          entities.idp.createLogoutResponse(entities.sp, info, "redirect", relayState).context,
          303,
        );
      const posted = entities.idp.createLogoutResponse(entities.sp, info, "post", relayState) as PostBindingContext;
      return sendPostForm(reply, posted.entityEndpoint, {
        SAMLResponse: posted.context,
        RelayState: fields.RelayState,
      });
    } catch (error) {
      if (error instanceof SamlRequestRefused || error instanceof XmlRefusedError)
        throw new AppError("saml.request_refused", { reason: error.message, cause: error });
      throw error;
    }
  };

  const schema = {
    tags: ["saml"],
    summary: "SAML 2.0 Single Logout (LogoutRequest by HTTP-Redirect or HTTP-POST)",
    description:
      "A signed LogoutRequest from a registered SP ends the KPI ID session; the LogoutResponse goes to its logout endpoint.",
  };
  app.get(samlPaths.slo, { schema: { ...schema, querystring: messageFields } }, (request, reply) =>
    receive(request, reply, "redirect", request.query),
  );
  app.post(samlPaths.slo, { schema: { ...schema, body: messageFields }, config: { csrf: false } }, (request, reply) =>
    receive(request, reply, "post", request.body),
  );
};
