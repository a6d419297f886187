import formbody from "@fastify/formbody";
import { text } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { hasConsent } from "../../model/access/consents.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { findPendingRequest, savePendingRequest, takePendingRequest } from "../../model/saml/pending-requests.ts";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import { secondFactorSetUpPath, stepUpSignInPath } from "../../model/sessions/continue-to.ts";
import { meetsRequirement } from "../../model/sessions/strength.ts";
import { AppError } from "../../platform/errors.ts";
import { showRefusalsAsPage } from "../../platform/http/browser-errors.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { passGate } from "../../sign-in/gate/gate.ts";
import { rememberContinueTo } from "../../sign-in/session/continue-cookie.ts";
import { currentSession } from "../../sign-in/session/current.ts";
import { releasedAttributeNames } from "./attributes.ts";
import type { AcceptedAuthnRequest } from "./authn-request.ts";
import { isFirstPartySp } from "./consent.ts";
import { type Binding, decodeXml, SamlRequestRefused } from "./incoming.ts";
import { statusCodes } from "./namespaces.ts";
import { samlContinuePath, samlPaths } from "./paths.ts";
import { XmlRefusedError } from "./xml-guard.ts";

/** A SAML message by HTTP-Redirect (query) or HTTP-POST (form), as the bindings name its fields. */
export const messageFields = z.object({
  SAMLRequest: text().max(200_000).optional(),
  RelayState: text().max(1024).optional(),
  SigAlg: text().max(200).optional(),
  Signature: text().max(2048).optional(),
});

/**
 * A refused SAML message, said to the operator at warn (which SP, why: unknown SP, bad signature, weak
 * algorithm, wrong ACS, replay; never who signs in) and to the browser as `saml.request_refused`.
 */
export function refusal(request: FastifyRequest, error: unknown): unknown {
  if (!(error instanceof SamlRequestRefused || error instanceof XmlRefusedError)) return error;
  request.log.warn({ samlRefusal: error.message.slice(0, 500), sp: issuerHint(request) }, "SAML message refused");
  const code = error instanceof SamlRequestRefused ? error.code : "saml.request_refused";
  return new AppError(code, { reason: error.message, cause: error });
}

/** The SP as the message names it, for the log line only (read again, bounded; nothing here is trusted). */
function issuerHint(request: FastifyRequest): string | undefined {
  const fields = { ...(request.query as object), ...(request.body as object) } as Record<string, unknown>;
  const encoded = fields.SAMLRequest ?? fields.SAMLResponse;
  if (typeof encoded !== "string") return undefined;
  try {
    // As HTTP-POST reads it: raw XML or deflated, either way within the size limit.
    const xml = decodeXml({ binding: "post", fields: { SAMLRequest: encoded }, rawQuery: "" });
    return /<(?:\w+:)?Issuer[^>]*>([^<]{1,300})</.exec(xml)?.[1]?.trim();
  } catch {
    return undefined;
  }
}

/** The id of a request waiting on the server (saml_pending_requests.id). */
export const pendingIdParams = z.object({ id: text().regex(/^[A-Za-z0-9_-]{1,64}$/) });

/** Where the sign-in screen sends the browser back once someone is signed in. */
export const continuePathOf = (id: string) => `${samlContinuePath}/${encodeURIComponent(id)}`;

/**
 * What reads AuthnRequests and writes signed answers needs samlify and xmldom: loaded on the first SAML
 * request, not at start-up (issue 41; Node keeps a module once loaded).
 */
const readers = () => import("./authn-request.ts");
const answers = () => import("./answer.ts");

export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  showRefusalsAsPage(app);
  await app.register(formbody, { bodyLimit: 256 * 1024 });

  const receive = async (
    request: FastifyRequest,
    reply: FastifyReply,
    binding: Binding,
    fields: z.infer<typeof messageFields>,
  ) => {
    const { db, config, clock, saml } = app;
    const { signing } = await saml.currentKeys();
    if (!signing) throw new Error("no SAML signing key");
    const now = clock();
    const rawQuery = binding === "redirect" ? ((request.raw.url ?? "").split("?")[1] ?? "") : "";
    let accepted: AcceptedAuthnRequest;
    try {
      accepted = await (await readers()).acceptAuthnRequest(
        db,
        { idpEntityId: config.saml.entityId, ssoUrl: `${config.publicUrl}${samlPaths.sso}`, key: signing, now },
        { binding, fields, rawQuery },
      );
    } catch (error) {
      throw refusal(request, error);
    }
    if (accepted.isPassive && !(await currentSession(request, reply)))
      return (await answers()).answerStatus(request, reply, accepted, statusCodes.noPassive);
    const id = await savePendingRequest(db, accepted, now);
    return reply.redirect(continuePathOf(id), 303);
  };

  const schema = {
    tags: ["saml"],
    summary: "SAML 2.0 Single Sign-On (AuthnRequest by HTTP-Redirect or HTTP-POST)",
    description:
      "Checks the request (known SP, signature, ACS URL from metadata, unseen ID) and continues at /saml/continue/{id}.",
  };
  app.get(samlPaths.sso, { schema: { ...schema, querystring: messageFields } }, (request, reply) =>
    receive(request, reply, "redirect", request.query),
  );
  app.post(samlPaths.sso, { schema: { ...schema, body: messageFields }, config: { csrf: false } }, (request, reply) =>
    receive(request, reply, "post", request.body),
  );

  app.get(
    `${samlContinuePath}/:id`,
    {
      schema: {
        tags: ["saml"],
        summary: "Continue a service provider's SAML sign-in",
        description:
          "Without a KPI ID session (or when ForceAuthn asks for a new sign-in) goes to the sign-in screen (the pending sign-in remembers this request), which returns here; with one, posts the answer to the SP.",
        params: pendingIdParams,
      },
    },
    async (request, reply) => {
      const { db, clock } = app;
      const pending = await findPendingRequest(db, request.params.id, clock());
      const sp = pending && (await findServiceProvider(db, pending.sp_entity_id, clock()));
      if (!pending || !sp) throw new AppError("saml.request_not_found");
      const session = await currentSession(request, reply);
      const application =
        (sp.application_id && (await cachedApplicationById(app.applicationCache, db, sp.application_id))) || undefined;
      const decision = await passGate(request, {
        session,
        application,
        // ForceAuthn: only a sign-in made after the request arrived will do (as OIDC prompt=login).
        asks: {
          signedInSince: pending.force_authn ? pending.created_at : undefined,
          multiFactor: pending.mfa_requested,
        },
        // An SP that is not first-party gets nothing about the person before they allow it (as OpenID Connect clients).
        needsConsent: async (signedIn) =>
          !(await isFirstPartySp(request, sp)) &&
          !(await hasConsent(
            db,
            signedIn.userId,
            { protocol: "saml", spEntityId: sp.entity_id },
            releasedAttributeNames(sp),
            clock(),
          )),
      });
      const language = requestLanguage(request);
      const continueHere = () =>
        rememberContinueTo(reply, {
          kind: "protocol",
          protocol: "saml",
          waiting: pending.id,
          path: continuePathOf(pending.id),
        });
      if (decision.kind === "sign_in" || decision.kind === "sign_in_again") {
        continueHere();
        // A signed-in person asked to prove who they are again sees the sign-in screen anyway (reauth=1).
        return reply.redirect(session ? `/${language}/?reauth=1` : `/${language}/`, 303);
      }
      const to = { sp, requestId: pending.request_id, acsUrl: pending.acs_url, relayState: pending.relay_state };
      const answerOnce = async (answer: () => Promise<unknown>) => {
        if (!(await takePendingRequest(db, pending.id))) throw new AppError("saml.request_not_found");
        return answer();
      };
      const answerStatus = (status: string) =>
        answerOnce(async () => (await answers()).answerStatus(request, reply, to, status));
      if (pending.declined || decision.kind === "no_access" || decision.kind === "testing_only")
        return answerStatus(statusCodes.requestDenied);
      if (decision.kind === "step_up" || decision.kind === "set_up_second_factor") {
        // Signed in again for this request and still one factor: the SP hears it cannot be met; else the person
        // proves more once (the step-up, or setting a factor up first), coming back here.
        if (session && meetsRequirement(session, { provenSince: pending.created_at }))
          return answerStatus(statusCodes.noAuthnContext);
        continueHere();
        if (decision.kind === "set_up_second_factor") return reply.redirect(secondFactorSetUpPath(language), 303);
        return reply.redirect(stepUpSignInPath(language), 303);
      }
      if (decision.kind === "consent")
        return reply.redirect(`/${language}/consent?saml=${encodeURIComponent(pending.id)}`, 303);
      return answerOnce(async () => (await answers()).answerSignedIn(request, reply, to, decision.session));
    },
  );
};
