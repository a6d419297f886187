import { INSTITUTION_REQUEST_PARAM } from "@kpi-id/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { findAllowedInstitution } from "../../../model/saml/identity-providers.ts";
import { institutionStrength } from "../../../model/sessions/strength.ts";
import { createVisitorAccount } from "../../../model/visitors/accounts.ts";
import { addHomeIdentity, findHomeIdentity, noteHomeIdentitySeen } from "../../../model/visitors/identities.ts";
import {
  consumeAnsweredRequest,
  findAnsweredRequest,
  findUnansweredRequest,
  recordAnswer,
  rememberAssertion,
  saveVisitorRequest,
} from "../../../model/visitors/requests.ts";
import { AppError } from "../../../platform/errors.ts";
import { audit } from "../../../platform/http/audit.ts";
import { requestLanguage } from "../../../platform/http/language.ts";
import { completeSignIn } from "../../../sign-in/session/complete-sign-in.ts";
import { rememberContinueTo } from "../../../sign-in/session/continue-cookie.ts";
import { requireSession } from "../../../sign-in/session/current.ts";
import { inResponseToOf, verifyResponse } from "./answer.ts";
import { answerSchema } from "./answer-schema.ts";
import { AnswerRefused, readVisitor, type VisitorAnswer } from "./attributes.ts";
import { bindBrowser, boundBrowser, forgetBrowser, VISITOR_REQUEST_SECONDS } from "./browser-cookie.ts";
import { institutionPolicy } from "./policy.ts";
import { institutionEntity, visitorServiceProvider } from "./service-provider.ts";

async function allowedInstitution(app: FastifyInstance, entityId: string) {
  const institution = await findAllowedInstitution(app.db, institutionPolicy(app), entityId, app.clock());
  if (!institution) throw new AppError("institution.not_allowed", { reason: "institution.not_allowed" });
  return institution;
}

const expiresIn = (app: FastifyInstance) => new Date(app.clock().getTime() + VISITOR_REQUEST_SECONDS * 1000);

/**
 * Sends the browser to its home institution with a signed AuthnRequest (HTTP-Redirect); "link" adds the home
 * identity to the signed-in person instead of signing in. Answers the address to go to.
 */
export async function startAtInstitution(
  request: FastifyRequest,
  reply: FastifyReply,
  start: { entityId: string; purpose: "sign-in" | "link"; appId?: string; state?: string; redirectUri?: string },
): Promise<string> {
  const app = request.server;
  const institution = await allowedInstitution(app, start.entityId);
  // An application's sign-in link waits for the person's return, as with Google (continue-cookie.ts).
  if (start.purpose === "sign-in" && start.appId)
    rememberContinueTo(reply, {
      kind: "application",
      appId: start.appId,
      state: start.state,
      redirectUri: start.redirectUri,
    });
  const userId = start.purpose === "link" ? (await requireSession(request, reply)).userId : null;
  const { signing } = await app.saml.currentKeys();
  if (!signing) throw new AppError("institution.answer_refused", { reason: "no SAML key" });
  const idp = institutionEntity(institution, false);
  const sp = visitorServiceProvider(app.config, signing, idp.entityMeta.isWantAuthnRequestsSigned());
  const { id, context } = sp.createLoginRequest(idp, "redirect") as {
    id: string;
    context: string;
  };
  const browserHash = bindBrowser(reply);
  await saveVisitorRequest(
    app.db,
    { id, browserHash, institution: institution.entity_id, purpose: start.purpose, userId, expiresAt: expiresIn(app) },
    app.clock(),
  );
  return context;
}

function refusal(error: unknown): never {
  if (error instanceof AnswerRefused) throw new AppError(error.code, { reason: error.message });
  throw error;
}

/**
 * An institution's answer (the cross-site POST to the assertion consumer service): verified, checked against the
 * request it answers and against replay, and kept with that request. Answers the request's id; nothing is signed
 * in here (finishAtInstitution does that, in the browser that started it).
 */
export async function receiveAnswer(request: FastifyRequest, samlResponse: string): Promise<string> {
  const app = request.server;
  const now = app.clock();
  try {
    const requestId = inResponseToOf(samlResponse);
    const pending = await findUnansweredRequest(app.db, requestId, now);
    if (!pending) throw new AppError("institution.request_expired", { reason: "no request waits for this answer" });
    const institution = await allowedInstitution(app, pending.institution);
    const { published } = await app.saml.currentKeys();
    const verified = await verifyResponse(app.config, published, institution, { requestId, samlResponse });
    const fresh = await rememberAssertion(app.db, {
      institution: institution.entity_id,
      assertionId: verified.assertionId,
      now,
      expiresAt: verified.notOnOrAfter,
    });
    if (!fresh) throw new AnswerRefused("the assertion was already used");
    const answer = readVisitor(verified.released, {
      institution: institution.entity_id,
      scopes: institution.scopes,
      nameId: verified.nameId,
      authnContext: verified.authnContext,
    });
    if (!(await recordAnswer(app.db, requestId, answer, expiresIn(app))))
      throw new AppError("institution.request_expired", { reason: "the request was already answered" });
    return requestId;
  } catch (error) {
    const appError = error instanceof AnswerRefused ? new AppError(error.code, { reason: error.message }) : error;
    if (appError instanceof AppError)
      await audit(request, { type: "sign_in", result: "failure", authMethod: "INSTITUTION", reason: appError.code });
    return refusal(appError);
  }
}

async function answeredRequest(request: FastifyRequest, requestId: string) {
  const browserHash = boundBrowser(request);
  const row = browserHash
    ? await findAnsweredRequest(request.server.db, requestId, browserHash, request.server.clock())
    : undefined;
  if (!browserHash || !row) throw new AppError("institution.request_expired", { reason: "not this browser's answer" });
  return { row, browserHash, answer: answerSchema.parse(row.answer) as VisitorAnswer };
}

async function useUp(request: FastifyRequest, reply: FastifyReply, requestId: string, browserHash: string) {
  if (!(await consumeAnsweredRequest(request.server.db, requestId, browserHash, request.server.clock())))
    throw new AppError("institution.request_expired", { reason: "already used" });
  forgetBrowser(reply);
}

/** The same home identifier, but a different persistent NameID: the institution gave the eppn to someone else. */
function refuseReassigned(knownNameId: string | null, answer: VisitorAnswer) {
  const seen = answer.identity.nameId;
  if (answer.identity.subjectKind === "eppn" && knownNameId && seen && knownNameId !== seen)
    throw new AppError("institution.identity_reassigned", { reason: "eppn seen with another persistent NameID" });
}

/**
 * The browser that started the sign-in comes back (a top-level GET, its cookie with it). A known home identity signs
 * its person in; a link attaches it to the signed-in person; an unknown one goes to the agreement screen.
 * Answers where the browser goes next.
 */
export async function finishAtInstitution(
  request: FastifyRequest,
  reply: FastifyReply,
  requestId: string,
): Promise<string> {
  const app = request.server;
  const language = requestLanguage(request);
  const { row, browserHash, answer } = await answeredRequest(request, requestId);
  const known = await findHomeIdentity(app.db, answer.identity);
  if (known) refuseReassigned(known.name_id, answer);
  if (row.purpose === "link") {
    const session = await requireSession(request, reply);
    if (session.userId !== row.user_id) throw new AppError("institution.request_expired", { reason: "another person" });
    if (known && known.user_id !== session.userId) throw new AppError("institution.already_linked");
    await useUp(request, reply, requestId, browserHash);
    if (!known) await addHomeIdentity(app.db, session.userId, answer.identity, false, app.clock());
    await audit(request, {
      type: "method_linked",
      result: "success",
      authMethod: "INSTITUTION",
      userId: session.userId,
    });
    return `/${language}/account?linked=institution`;
  }
  if (!known) return `/${language}/institution?${new URLSearchParams({ [INSTITUTION_REQUEST_PARAM]: requestId })}`;
  await useUp(request, reply, requestId, browserHash);
  await noteHomeIdentitySeen(app.db, known.id, answer.identity, app.clock());
  const strength = institutionStrength(answer.authnContext);
  return (await completeSignIn(request, reply, { userId: known.user_id, method: "INSTITUTION", strength })).next;
}

/** What the agreement screen shows: the institution and what KPI ID would keep. */
export async function describeWelcome(request: FastifyRequest, requestId: string) {
  const { row, answer } = await answeredRequest(request, requestId);
  if (row.purpose !== "sign-in") throw new AppError("institution.request_expired", { reason: "not a sign-in" });
  const institution = await allowedInstitution(request.server, row.institution);
  return {
    institution: { entityId: institution.entity_id, en: institution.display_name_en, uk: institution.display_name_uk },
    name: answer.name,
    email: answer.email,
    affiliations: answer.identity.scopedAffiliations,
    multiFactor: institutionStrength(answer.authnContext).includes("mfa"),
  };
}

/** The person agreed: their visitor account is made and they are signed in. Answers where the browser goes next. */
export async function acceptVisitor(request: FastifyRequest, reply: FastifyReply, requestId: string): Promise<string> {
  const app = request.server;
  const { row, browserHash, answer } = await answeredRequest(request, requestId);
  if (row.purpose !== "sign-in") throw new AppError("institution.request_expired", { reason: "not a sign-in" });
  await allowedInstitution(app, row.institution);
  if (await findHomeIdentity(app.db, answer.identity)) throw new AppError("institution.already_linked");
  await useUp(request, reply, requestId, browserHash);
  const person = await createVisitorAccount(app.db, app.passwordHasher, answer, app.clock());
  await audit(request, {
    type: "visitor_account_created",
    result: "success",
    authMethod: "INSTITUTION",
    userId: person.id,
  });
  const strength = institutionStrength(answer.authnContext);
  return (await completeSignIn(request, reply, { userId: person.id, method: "INSTITUTION", strength, person })).next;
}
