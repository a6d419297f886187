import { consentAnswerSchema, consentDetailsSchema, consentOutcomeSchema, text } from "@kpi-id/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type Provider from "oidc-provider";
import type { InteractionResults } from "oidc-provider";
import { z } from "zod";
import { isFirstParty } from "../../model/access/ticket-consents.ts";
import { hasApplicationAccess } from "../../model/admission/applications.ts";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import { localizedTexts } from "../../model/apps/localized.ts";
import { recordIntegrationFailure } from "../../model/developers/health.ts";
import { publisherOf } from "../../model/developers/publisher.ts";
import { refusedForTesting } from "../../model/developers/testing.ts";
import { secondFactorSetUpPath, stepUpSignInPath } from "../../model/sessions/continue-to.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { AppError, hasCode } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { readSessionCookie } from "../../platform/http/session-cookie.ts";
import { gateRefusals, passGate } from "../../sign-in/gate/gate.ts";
import { rememberContinueTo } from "../../sign-in/session/continue-cookie.ts";
import { currentSession, requireSession } from "../../sign-in/session/current.ts";
import { approvedResult, clientIdOf, deniedResult, requestedScopes, resumesByItself } from "./interaction-result.ts";
import { interactionPath, oidcContinueTo, oidcTtl } from "./provider.ts";
import type { OidcRuntime } from "./runtime.ts";
import { recordConsent, rememberedConsent } from "./session-grant.ts";
import { acrValuesAskMultiFactor, interactionAcrValues } from "./step-up.ts";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

const uidParams = z.object({ uid: text().min(1).max(64) });
/** The application's ui_locales and whether the provider decides the rest itself, as its interaction URL says (provider.ts). */
const interactionQuery = z.object({ ui_locales: text().max(256).optional(), resume: z.literal("1").optional() });

/** The uid the provider's interaction cookie names (the value only: it decides nothing but where to go next). */
function providerInteractionCookie(provider: Provider, request: FastifyRequest): string | undefined {
  const name = (provider as unknown as { cookieName(type: string): string }).cookieName("interaction");
  return request.cookies[name];
}

/** The refusal's reason in the audit log and in `access_denied`'s description to the application. */
const noAccess = "no access to this application";

async function loadInteraction(provider: Provider, request: FastifyRequest, reply: FastifyReply, uid: string) {
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(request.raw, reply.raw);
  } catch (error) {
    throw new AppError("oidc.interaction_not_found", { cause: error });
  }
  if (interaction.uid !== uid) throw new AppError("oidc.interaction_not_found");
  return interaction;
}

/**
 * prompt=login, or a max_age the KPI ID session is older than: the person must prove who they are again (OIDC Core
 * §3.1.2.1), so only a sign-in made at or after the request began will do.
 */
function freshSignInSince(interaction: Interaction): Date | undefined {
  const { name, reasons } = interaction.prompt;
  const asked = name === "login" && (reasons.includes("login_prompt") || reasons.includes("max_age"));
  return asked ? new Date(interaction.iat * 1000) : undefined;
}

async function applicationOf(app: FastifyInstance, interaction: Interaction) {
  const application = await cachedApplicationById(app.applicationCache, app.db, clientIdOf(interaction));
  if (!application) throw new AppError("app.not_found");
  return application;
}

function auditRefusal(
  request: FastifyRequest,
  facts: { session: LoadedSession; applicationId: string },
  reason: string,
): Promise<void> {
  return audit(request, {
    type: "oidc_sign_in",
    result: "failure",
    authMethod: facts.session.authMethod,
    userId: facts.session.userId,
    applicationId: facts.applicationId,
    reason,
  });
}

/**
 * The provider's login and consent interaction, answered by our own screens:
 * GET {uid} decides where the browser goes; the consent screen reads
 * {uid}/details and posts {uid}/consent.
 */
export function interactionRoutes(runtime: OidcRuntime): FastifyPluginAsyncZod {
  return async (app) => {
    /**
     * Hands the outcome to the provider (answering where the browser goes next). A refusal is
     * audited here, where the person is known; a success when the provider answers the
     * application (oidc/audit.ts), the same row as for sign-ins without a screen.
     */
    const finish = async (
      request: FastifyRequest,
      reply: FastifyReply,
      result: InteractionResults,
      facts: { session: LoadedSession; applicationId: string },
    ) => {
      const redirectTo = await runtime.provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: false,
      });
      if (result.error) await auditRefusal(request, facts, String(result.error_description ?? result.error));
      return redirectTo;
    };

    app.get(
      `${interactionPath}/:uid`,
      {
        schema: {
          tags: ["openid-connect"],
          summary: "Continue an application's OpenID Connect sign-in",
          description:
            "Without a KPI ID session redirects to the sign-in screen (`/{lang}/`), remembering this interaction " +
            "in the signed pending sign-in cookie; whichever way the person signs in then returns here. " +
            "With one: a first-party application continues at once; others go to the consent screen, which " +
            "also tells a person without access to the application that they have none.",
          params: uidParams,
          querystring: interactionQuery,
        },
      },
      async (request, reply) => {
        const { provider } = runtime;
        const { uid } = request.params;
        const sessionCookie = readSessionCookie(request) !== undefined;
        // Sent here by the provider a moment ago (its interaction cookie names this uid) with no KPI ID session:
        // the sign-in screen, in the application's ui_locales, without reading the interaction; after the
        // sign-in, straight back to the provider when it decides the rest by itself (resume=1, provider.ts).
        // The address decides nothing the provider does not check again: a wrong resume=1 costs a detour.
        if (!sessionCookie && providerInteractionCookie(provider, request) === uid) {
          const resume = request.query.resume === "1" ? true : undefined;
          rememberContinueTo(reply, oidcContinueTo(uid, resume));
          return reply.redirect(`/${requestLanguage(request, request.query.ui_locales)}/`, 303);
        }
        let interaction: Interaction;
        try {
          interaction = await loadInteraction(provider, request, reply, uid);
        } catch (error) {
          if (!hasCode(error, "oidc.interaction_not_found")) throw error;
          // A browser arrives here by navigation: the consent screen explains the expiry in the person's language.
          const language = requestLanguage(request);
          return reply.redirect(`/${language}/consent?uid=${encodeURIComponent(request.params.uid)}`, 303);
        }
        // The provider checks the KPI ID session itself when it resumes (and clears a dead cookie: kpi-session.ts).
        if (sessionCookie && resumesByItself(interaction)) return reply.redirect(interaction.returnTo, 303);
        const language = requestLanguage(request, interaction.params.ui_locales);
        const session = await currentSession(request, reply);
        const application = await applicationOf(app, interaction);
        const scopes = requestedScopes(interaction);
        // A device's request (RFC 8628): the person has just allowed it on the device page, which showed the
        // application and these scopes; that answer is the consent, remembered like the consent screen's.
        // Someone else signed in to this browser since then is asked on the consent screen instead.
        const deviceAnswered = Boolean(interaction.deviceCode) && interaction.session?.accountId === session?.userId;
        const question = { clientId: application.id, scopes };
        const decision = await passGate(request, {
          session,
          application,
          asks: {
            signedInSince: freshSignInSince(interaction),
            multiFactor: acrValuesAskMultiFactor(interactionAcrValues(interaction)),
          },
          needsConsent: async (signedIn) =>
            !deviceAnswered &&
            !isFirstParty(application) &&
            !(await rememberedConsent(app.db, {
              ...question,
              accountId: signedIn.userId,
              prompt: String(interaction.params.prompt ?? ""),
            })),
        });
        const consentScreen = `/${language}/consent?uid=${encodeURIComponent(interaction.uid)}`;
        switch (decision.kind) {
          case "issue": {
            const facts = { session: decision.session, applicationId: application.id };
            if (deviceAnswered)
              await recordConsent(app.db, { ...question, accountId: facts.session.userId }, oidcTtl.Grant);
            const approved = await approvedResult(provider, interaction, decision.session);
            return reply.redirect(await finish(request, reply, approved, facts), 303);
          }
          // No access: KPI ID's own page says so and who to ask (the consent screen, told by the details),
          // rather than a bounce to the application with an error it would report as "you declined".
          case "no_access":
          case "testing_only":
            if (session) await auditRefusal(request, { session, applicationId: application.id }, noAccess);
            await recordIntegrationFailure(
              app.db,
              application.id,
              "oidc",
              gateRefusals[decision.kind].health ?? "no_access",
            );
            return reply.redirect(consentScreen, 303);
          case "consent":
            return reply.redirect(consentScreen, 303);
          default:
            break;
        }
        // After a sign-in (not a step-up), straight back to the provider when it decides the rest by itself.
        const signingIn = decision.kind === "sign_in" || decision.kind === "sign_in_again";
        const resume = signingIn && resumesByItself(interaction) ? true : undefined;
        rememberContinueTo(reply, oidcContinueTo(interaction.uid, resume));
        // A person with no second factor (and no Diia) cannot sign in more strongly: rather than a loop of
        // sign-in screens, they set one up, and confirming it brings them back to this interaction.
        if (decision.kind === "set_up_second_factor") return reply.redirect(secondFactorSetUpPath(language), 303);
        if (decision.kind === "step_up") return reply.redirect(stepUpSignInPath(language), 303);
        // A signed-in person asked to prove who they are again sees the sign-in screen anyway (reauth=1).
        return reply.redirect(session ? `/${language}/?reauth=1` : `/${language}/`, 303);
      },
    );

    app.get(
      `${interactionPath}/:uid/details`,
      {
        schema: {
          tags: ["openid-connect"],
          summary: "What an application asks for (the consent screen)",
          params: uidParams,
          response: { 200: consentDetailsSchema },
        },
      },
      async (request, reply) => {
        const interaction = await loadInteraction(runtime.provider, request, reply, request.params.uid);
        const session = await requireSession(request, reply);
        const application = await applicationOf(app, interaction);
        const access = await hasApplicationAccess(app.db, session.userId, application.id);
        return {
          application: localizedTexts(application, requestLanguage(request)),
          scopes: requestedScopes(interaction).filter((scope) => scope !== "openid"),
          person: { name: session.user.full_name },
          access,
          reviewed: application.lifecycle === "live",
          inTesting: !access && refusedForTesting(application),
          ...(application.community && { publisher: await publisherOf(app.db, application) }),
        };
      },
    );

    app.post(
      `${interactionPath}/:uid/consent`,
      {
        schema: {
          tags: ["openid-connect"],
          summary: "Allow or deny an application's request",
          description:
            "Answers where the browser goes next: back to the application, with a code or with access_denied.",
          params: uidParams,
          body: consentAnswerSchema,
          response: { 200: consentOutcomeSchema },
        },
      },
      async (request, reply) => {
        const session = await requireSession(request, reply);
        const { provider } = runtime;
        const interaction = await loadInteraction(provider, request, reply, request.params.uid);
        const application = await applicationOf(app, interaction);
        const access = await hasApplicationAccess(app.db, session.userId, application.id);
        const allowed = request.body.allow && access;
        if (allowed) {
          const question = {
            accountId: session.userId,
            clientId: application.id,
            scopes: requestedScopes(interaction),
          };
          await recordConsent(app.db, question, oidcTtl.Grant);
        }
        const result = allowed
          ? await approvedResult(provider, interaction, session)
          : deniedResult(access ? "the person declined" : noAccess);
        return { redirectTo: await finish(request, reply, result, { session, applicationId: application.id }) };
      },
    );
  };
}
