import { type SignInContinuing, signInContinuingSchema } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ContinueTo } from "../../model/sessions/continue-to.ts";
import { continuingToApplication } from "../../protocols/record.ts";
import { peekContinueTo } from "../../sign-in/session/continue-cookie.ts";

async function continuingTo(app: FastifyInstance, to: ContinueTo): Promise<SignInContinuing | undefined> {
  switch (to.kind) {
    case "application":
      return continuingToApplication(app.db, to.appId);
    case "protocol": {
      // The protocol that paused the sign-in names what waits (protocols/record.ts); its own pages name nothing.
      const protocol = app.protocols.find((each) => each.name === to.protocol);
      return to.waiting && protocol?.continuingTo ? protocol.continuingTo(app, to.waiting) : undefined;
    }
    default:
      // KPI ID's own pages (apps, account) are no application to name.
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
