import type { Element } from "@xmldom/xmldom";
import type { FastifyReply, FastifyRequest } from "fastify";
import { awaitAnswer, roundAwaiting, startLogoutRound } from "../../model/saml/logout-rounds.ts";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import { forgetSamlSessions, samlSessionsNamed } from "../../model/saml/sessions.ts";
import { signOutSessions } from "../../model/sessions/end-sessions.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { sendOnwardPage } from "../../platform/http/post-form.ts";
import {
  rememberRequestId,
  requireSignatureOfRoot,
  requireStrongSignature,
  signedOctets,
  textOf,
} from "./authn-request.ts";
import { samlEntities } from "./entities.ts";
import { type Binding, decodeXml, type LogoutFields, maxAuthnRequestBytes, SamlRequestRefused } from "./incoming.ts";
import { ns } from "./namespaces.ts";
import { logoutRoundPath, samlPaths } from "./paths.ts";
import { childrenNamed, parseXml } from "./sp-metadata.ts";
import { guardXml, XmlRefusedError } from "./xml-guard.ts";

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
 * A LogoutRequest or LogoutResponse by either binding (slo-routes.ts): checked, verified with samlify, and
 * acted on. Loaded on the first logout message, not at start-up (issue 41).
 */
export async function receiveLogout(
  request: FastifyRequest,
  reply: FastifyReply,
  binding: Binding,
  fields: LogoutFields,
) {
  const { db, config, clock, saml } = request.server;
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
  const sessions = await samlSessionsNamed(db, sp.entity_id, message.nameId, message.sessionIndexes);
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
  // The round carries the other SPs' LogoutRequests through this browser: their records go now, so that the
  // sign-out below does not tell them (and the initiator) a second time over the back channel (sign-out.ts).
  await forgetSamlSessions(
    db,
    sessions.map((row) => row.session_id),
  );
  // The sessions end through the one path: the applications of the other protocols hear of it by back channel.
  const ended = await signOutSessions(
    { db, now, signOut: request.server.signOut },
    { sessionIds: sessions.map((row) => row.session_id) },
    { reason: "signed_out", ...requestOrigin(request) },
  );
  for (const userId of ended.users) await audit(request, { type: "logout", result: "success", userId });
  return reply.redirect(logoutRoundPath(roundId ?? ""), 303);
}
