import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PostBindingContext } from "samlify/types/src/types.js";
import {
  awaitAnswer,
  endLogoutRound,
  findLogoutRound,
  type LogoutRound,
  takeNextParticipant,
} from "../../model/saml/logout-rounds.ts";
import { findServiceProvider, type ServiceProviderRow } from "../../model/saml/service-providers.ts";
import { AppError } from "../../platform/errors.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { sendPostForm } from "../../platform/http/post-form.ts";
import { samlEntities } from "./entities.ts";
import { newSamlId } from "./login-response.ts";
import { nameIdFormats, ns } from "./namespaces.ts";
import { samlPaths } from "./paths.ts";
import { samlify } from "./samlify.ts";

/** samlify's IdP and the SP, with KPI ID's current signing key. */
export async function entitiesFor(app: FastifyInstance, sp: ServiceProviderRow) {
  const { config, saml } = app;
  const { signing } = await saml.currentKeys();
  if (!signing) throw new Error("no SAML signing key");
  return samlEntities({
    idpEntityId: config.saml.entityId,
    ssoUrl: `${config.publicUrl}${samlPaths.sso}`,
    key: signing,
    sp,
  });
}

/** The SP's logout endpoint for the binding we prefer: HTTP-Redirect when it has one, else HTTP-POST, else none. */
function logoutBinding(entities: Awaited<ReturnType<typeof entitiesFor>>): "redirect" | "post" | undefined {
  const meta = entities.sp.entityMeta;
  if (typeof meta.getSingleLogoutService("redirect") === "string") return "redirect";
  if (typeof meta.getSingleLogoutService("post") === "string") return "post";
  return undefined;
}

// samlify's own LogoutRequest names the subject by its value and Format only; ours repeats the
// assertion's NameID exactly (saml-core §3.7.1 and §8.3.7: the same qualifiers), which SPs match
// on (lasso, under mod_auth_mellon, compares every attribute and otherwise finds no session).
const logoutRequestTemplate =
  `<samlp:LogoutRequest xmlns:samlp="${ns.samlp}" xmlns:saml="${ns.saml}" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}">` +
  '<saml:Issuer>{Issuer}</saml:Issuer><saml:NameID Format="{NameIDFormat}" NameQualifier="{NameQualifier}" SPNameQualifier="{SPNameQualifier}">{NameID}</saml:NameID>' +
  "<samlp:SessionIndex>{SessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>";

export interface LogoutSubject {
  name_id: string;
  session_index: string;
  sp_entity_id: string;
}

/** The LogoutRequest's XML, for samlify to sign and encode (its customTagReplacement hook). */
export function logoutRequestXml(idpEntityId: string, now: Date, destination: string, subject: LogoutSubject) {
  const id = newSamlId();
  const context = samlify.SamlLib.replaceTagsByValue(logoutRequestTemplate, {
    ID: id,
    IssueInstant: now.toISOString(),
    Destination: destination,
    Issuer: idpEntityId,
    NameIDFormat: nameIdFormats.persistent,
    NameQualifier: idpEntityId,
    SPNameQualifier: subject.sp_entity_id,
    NameID: subject.name_id,
    SessionIndex: subject.session_index,
  });
  return { id, context };
}

/** The end of a round: the initiator's signed LogoutResponse, or KPI ID's sign-in screen. */
async function finish(request: FastifyRequest, reply: FastifyReply, round: LogoutRound) {
  const { db, clock } = request.server;
  await endLogoutRound(db, round.id);
  const initiator = round.initiator_sp ? await findServiceProvider(db, round.initiator_sp, clock()) : undefined;
  if (!initiator) return reply.redirect(round.return_to ?? `/${requestLanguage(request)}/`, 303);
  const entities = await entitiesFor(request.server, initiator);
  const info = { extract: { request: { id: round.initiator_request_id ?? "" } } };
  const relayState = round.initiator_relay_state ?? "";
  if (logoutBinding(entities) === "redirect")
    return reply.redirect(entities.idp.createLogoutResponse(entities.sp, info, "redirect", relayState).context, 303);
  const posted = entities.idp.createLogoutResponse(entities.sp, info, "post", relayState) as PostBindingContext;
  return sendPostForm(reply, posted.entityEndpoint, {
    SAMLResponse: posted.context,
    RelayState: round.initiator_relay_state,
  });
}

/**
 * One step of a front-channel logout round: a signed LogoutRequest (NameID and SessionIndex
 * from our assertion) to the next SP that has a logout endpoint, whose LogoutResponse comes
 * back to /saml/slo and here again; when none is left, the end.
 */
export async function continueLogout(request: FastifyRequest, reply: FastifyReply, roundId: string) {
  const { db, clock } = request.server;
  const round = await findLogoutRound(db, roundId, clock());
  if (!round) throw new AppError("saml.request_not_found");
  // The SP told last holds the round's id (RelayState): until its signed LogoutResponse came
  // back, the round does not move, or that SP could fetch the next SP's LogoutRequest (with the
  // person's NameID there) itself.
  if (round.awaiting_request_id !== null) throw new AppError("saml.request_not_found");
  for (;;) {
    const next = await takeNextParticipant(db, round.id);
    if (!next) return finish(request, reply, round);
    const sp = await findServiceProvider(db, next.sp_entity_id, clock());
    if (!sp) continue;
    const entities = await entitiesFor(request.server, sp);
    const binding = logoutBinding(entities);
    if (!binding) continue;
    const user = { logoutNameID: next.name_id, sessionIndex: next.session_index };
    const destination = String(entities.sp.entityMeta.getSingleLogoutService(binding));
    const made = entities.idp.createLogoutRequest(entities.sp, binding, user, {
      relayState: round.id,
      customTagReplacement: () =>
        logoutRequestXml(request.server.config.saml.entityId, request.server.clock(), destination, next),
    });
    await awaitAnswer(db, round.id, made.id);
    if (binding === "redirect") return reply.redirect(made.context, 303);
    const posted = made as PostBindingContext;
    return sendPostForm(reply, posted.entityEndpoint, { SAMLRequest: posted.context, RelayState: round.id });
  }
}
