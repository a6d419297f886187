import formbody from "@fastify/formbody";
import type { Element } from "@xmldom/xmldom";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import { audit } from "../../platform/audit/record.ts";
import {
  type Binding,
  decodeXml,
  maxAuthnRequestBytes,
  rememberRequestId,
  requireSignatureOfRoot,
  requireStrongSignature,
  SamlRequestRefused,
  signedOctets,
  textOf,
} from "./authn-request.ts";
import { showRefusalsAsPage } from "./browser-errors.ts";
import { samlEntities } from "./entities.ts";
import { awaitAnswer, roundAwaiting, startLogoutRound } from "./logout-round.ts";
import { continueLogout, logoutRoundPath } from "./logout-steps.ts";
import { samlPaths } from "./metadata.ts";
import { ns } from "./namespaces.ts";
import { sendOnwardPage } from "./post-form.ts";
import { childrenNamed, parseXml } from "./sp-metadata.ts";
import { findServiceProvider } from "./sp-registry.ts";
import { messageFields, pendingIdParams, refusal } from "./sso-routes.ts";
import { guardXml, XmlRefusedError } from "./xml-guard.ts";

/** A logout message by either binding: a LogoutRequest (SAMLRequest) or a LogoutResponse (SAMLResponse). */
const logoutFields = messageFields.extend({ SAMLResponse: messageFields.shape.SAMLRequest });
type Fields = z.infer<typeof logoutFields>;

/** The parts read before samlify runs: which SP sent it (whose key verifies it), about whom, in answer to what. */
function readLogoutMessage(xml: string, expected: "LogoutRequest" | "LogoutResponse") {
  guardXml(xml, { maxBytes: maxAuthnRequestBytes, allowComments: false });
  const root = parseXml(xml).documentElement as Element | null;
  if (!root || root.namespaceURI !== ns.samlp || root.localName !== expected)
    throw new XmlRefusedError(`expected one samlp:${expected}`);
  const signatures = childrenNamed(root, ns.ds, "Signature");
  if (signatures.length > 0) requireSignatureOfRoot(root, signatures);
  return {
    signatures,
    issuer: textOf(childrenNamed(root, ns.saml, "Issuer")[0]),
    nameId: textOf(childrenNamed(root, ns.saml, "NameID")[0]),
    sessionIndexes: childrenNamed(root, ns.samlp, "SessionIndex").map((element) => textOf(element)),
    inResponseTo: root.getAttribute("InResponseTo") ?? "",
    id: root.getAttribute("ID") ?? "",
  };
}

/**
 * Single Logout, front-channel (saml-profiles §4.4). An SP's signed LogoutRequest ends the
 * KPI ID session its session belongs to; then the browser carries a signed LogoutRequest to
 * every other SP of that session in turn (/saml/logout/{round}), each answering here with a
 * LogoutResponse, and last the initiator gets its LogoutResponse.
 */
export const sloRoutes: FastifyPluginAsyncZod = async (app) => {
  showRefusalsAsPage(app);
  await app.register(formbody, { bodyLimit: 256 * 1024 });

  const receive = async (request: FastifyRequest, reply: FastifyReply, binding: Binding, fields: Fields) => {
    const { db, config, clock, saml } = app;
    const { signing } = await saml.currentKeys();
    if (!signing) throw new Error("no SAML signing key");
    const rawQuery = binding === "redirect" ? ((request.raw.url ?? "").split("?")[1] ?? "") : "";
    const isResponse = fields.SAMLResponse !== undefined && fields.SAMLRequest === undefined;
    const type = isResponse ? "SAMLResponse" : "SAMLRequest";
    const encoded = isResponse ? fields.SAMLResponse : fields.SAMLRequest;
    const xml = decodeXml({ binding, fields: { SAMLRequest: encoded }, rawQuery });
    const message = readLogoutMessage(xml, isResponse ? "LogoutResponse" : "LogoutRequest");
    const now = clock();
    const round = isResponse ? await roundAwaiting(db, message.inResponseTo, now) : undefined;
    if (isResponse && !round) throw new SamlRequestRefused("a LogoutResponse to no LogoutRequest of ours");
    const sp = message.issuer ? await findServiceProvider(db, message.issuer, now) : undefined;
    if (!sp) throw new SamlRequestRefused("unknown service provider");
    requireStrongSignature(
      { binding, fields: { Signature: fields.Signature, SigAlg: fields.SigAlg }, rawQuery },
      message.signatures,
    );
    const entities = samlEntities({
      idpEntityId: config.saml.entityId,
      ssoUrl: `${config.publicUrl}${samlPaths.sso}`,
      key: signing,
      sp,
    });
    const signed =
      binding === "redirect"
        ? { query: fields, octetString: signedOctets(rawQuery, type) }
        : { body: { ...fields, [type]: Buffer.from(xml).toString("base64") } };
    if (round) {
      // An SP answered our LogoutRequest: signed by it, then on to the next SP.
      await entities.idp.parseLogoutResponse(entities.sp, binding, signed).catch((error: unknown) => {
        throw new SamlRequestRefused(`the logout response failed verification: ${String(error)}`);
      });
      await awaitAnswer(db, round.id, null);
      return sendOnwardPage(reply, logoutRoundPath(round.id));
    }
    const parsed = await entities.idp.parseLogoutRequest(entities.sp, binding, signed).catch((error: unknown) => {
      throw new SamlRequestRefused(`the logout request failed verification: ${String(error)}`);
    });
    const sessions = await db
      .selectFrom("saml_sessions")
      .select("session_id")
      .where("sp_entity_id", "=", sp.entity_id)
      .where("name_id", "=", message.nameId)
      .where("session_index", "in", message.sessionIndexes.length > 0 ? message.sessionIndexes : [""])
      .execute();
    const requestId = message.id;
    if (!requestId || requestId !== String(parsed.extract?.request?.id ?? requestId))
      throw new SamlRequestRefused("the logout request has no ID");
    // Each LogoutRequest is taken once, as AuthnRequests are: a replayed one is refused.
    await rememberRequestId(db, sp.entity_id, requestId, now);
    const roundId = await startLogoutRound(db, {
      sessionIds: sessions.map((row) => row.session_id),
      initiator: { spEntityId: sp.entity_id, requestId, relayState: fields.RelayState ?? null },
      now,
    });
    if (sessions.length > 0) {
      const ended = await db
        .deleteFrom("sessions")
        .where(
          "id",
          "in",
          sessions.map((row) => row.session_id),
        )
        .returning("user_id")
        .execute();
      for (const { user_id } of ended) await audit(request, { type: "logout", result: "success", userId: user_id });
    }
    return reply.redirect(logoutRoundPath(roundId ?? ""), 303);
  };

  const schema = {
    tags: ["saml"],
    summary: "SAML 2.0 Single Logout (LogoutRequest or LogoutResponse by HTTP-Redirect or HTTP-POST)",
    description:
      "A signed LogoutRequest from a registered SP ends the KPI ID session and starts front-channel logout of the session's other SPs; a LogoutResponse from an SP KPI ID asked continues it.",
  };
  const handle = (request: FastifyRequest, reply: FastifyReply, binding: Binding, fields: Fields) =>
    receive(request, reply, binding, fields).catch((error: unknown) => {
      throw refusal(request, error);
    });
  app.get(samlPaths.slo, { schema: { ...schema, querystring: logoutFields } }, (request, reply) =>
    handle(request, reply, "redirect", request.query),
  );
  app.post(samlPaths.slo, { schema: { ...schema, body: logoutFields }, config: { csrf: false } }, (request, reply) =>
    handle(request, reply, "post", request.body),
  );

  app.get(
    `${logoutRoundPath(":id")}`,
    {
      schema: {
        tags: ["saml"],
        summary: "The next step of a front-channel Single Logout",
        description:
          "Sends the browser with a signed LogoutRequest to the next SP of the ended session, or, when all were told, to the initiator's LogoutResponse or KPI ID's sign-in screen.",
        params: pendingIdParams,
      },
    },
    (request, reply) =>
      continueLogout(request, reply, request.params.id).catch((error: unknown) => {
        throw refusal(request, error);
      }),
  );
};
