import { type SignInContinuing, signInContinuingSchema } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { findApplicationById } from "../../model/apps/queries.ts";
import { findPendingLogin } from "../../model/cas/logins.ts";
import { applicationStage } from "../../model/developers/testing.ts";
import { findPendingRequest } from "../../model/saml/pending-requests.ts";
import { findServiceProvider } from "../../model/saml/service-providers.ts";
import type { ContinueTo } from "../../model/sessions/continue-to.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { peekContinueTo } from "../../sign-in/session/continue-cookie.ts";

function named(application: ApplicationRow | undefined): SignInContinuing | undefined {
  if (!application) return undefined;
  return { title: application.title, titleEn: application.title_en, stage: applicationStage(application) };
}

/** The OpenID Connect client an interaction (still waiting, unexpired) was started by. */
async function oidcClientOf(app: FastifyInstance, uid: string): Promise<string | undefined> {
  const interaction = await app.oidc.provider.Interaction.find(uid);
  const clientId = interaction?.params.client_id;
  return typeof clientId === "string" ? clientId : undefined;
}

/** A SAML service provider's request: its application when it has one, else its name (operators register both). */
async function samlServiceOf(app: FastifyInstance, requestId: string): Promise<SignInContinuing | undefined> {
  const now = app.clock();
  const pending = await findPendingRequest(app.db, requestId, now);
  const provider = pending ? await findServiceProvider(app.db, pending.sp_entity_id, now) : undefined;
  if (!provider) return undefined;
  if (provider.application_id) return named(await findApplicationById(app.db, provider.application_id));
  return provider.display_name ? { title: provider.display_name, stage: "reviewed" } : undefined;
}

async function continuingTo(app: FastifyInstance, to: ContinueTo): Promise<SignInContinuing | undefined> {
  switch (to.kind) {
    case "application":
      return named(await findApplicationById(app.db, to.appId));
    case "oidc": {
      const clientId = await oidcClientOf(app, to.uid);
      return clientId ? named(await findApplicationById(app.db, clientId)) : undefined;
    }
    case "saml":
      return samlServiceOf(app, to.requestId);
    case "cas": {
      const login = await findPendingLogin(app.db, to.requestId, app.clock());
      return login ? named(await findApplicationById(app.db, login.applicationId)) : undefined;
    }
    default:
      // KPI ID's own pages (apps, account, the device page) are no application to name.
      return undefined;
  }
}

/**
 * Whom the sign-in page names when its address names no application (issue 60): an OpenID Connect, SAML or CAS
 * sign-in sends the browser to the bare sign-in page and keeps what it continues to in the signed pending
 * sign-in cookie. The answer only reflects the caller's own cookie (nothing to enumerate: the ids in it are
 * the server's, signed), and tells no more than the consent screen after sign-in would.
 */
export const continuingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/sign-in/continuing",
    {
      schema: {
        tags: ["web"],
        summary: "The application this browser's sign-in continues to",
        description:
          "Reads the signed pending sign-in cookie (set when an OpenID Connect, SAML or CAS sign-in, or an " +
          "application's sign-in link, found nobody signed in) and answers the application's `title`, `titleEn` " +
          "and `stage` (`reviewed` or `testing`), which the sign-in page shows. 204 when no sign-in waits, the " +
          "cookie is missing, expired or altered, or what it names has ended. Never cached.",
        response: { 200: signInContinuingSchema, 204: z.null().describe("No application to name") },
      },
    },
    async (request, reply) => {
      const to = peekContinueTo(request);
      const answer = to ? await continuingTo(app, to) : undefined;
      reply.header("cache-control", "no-store");
      if (!answer?.title) return reply.code(204).send(null);
      return answer;
    },
  );
};
