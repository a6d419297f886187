import { currentUserSchema, defaultLanguage, errorBodySchema, languageFromAcceptHeader } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors.ts";
import { compiledSerializerCompiler } from "../../platform/http/compiled-serializer.ts";
import { currentSessionWithApplications } from "../../sign-in/session/current.ts";
import { currentUserAnswer } from "./answer.ts";

/** The signed-in person, their fields and their applications; what the web app renders from. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // Existing integrations call /api/user; the web app calls /user. Same answer.
  for (const url of ["/user", "/api/user"]) {
    app.get(
      url,
      {
        schema: {
          tags: ["session"],
          summary: "The signed-in person",
          description:
            "Full name, profile fields (keyed NAME, EMAIL, TAX_ID, STUDENT_ID, EMPLOYEE_ID, AUTH_METHOD; empty " +
            "string when missing) and the applications the person may open, their title and description in " +
            "the language of Accept-Language (Ukrainian when it names neither uk nor en, or when an " +
            "application has no English text). 401 `auth.not_authenticated` without a live session; never a redirect.",
          response: { 200: currentUserSchema, 401: errorBodySchema },
        },
        // The hottest read: its answer is written by a function compiled from the schema.
        serializerCompiler: compiledSerializerCompiler,
      },
      async (request, reply) => {
        const session = await currentSessionWithApplications(request, reply);
        if (!session) throw new AppError("auth.not_authenticated");
        const language = languageFromAcceptHeader(request.headers["accept-language"]) ?? defaultLanguage;
        reply.header("vary", "accept-language");
        return currentUserAnswer(session, language);
      },
    );
  }
};
