import { currentUserSchema, errorBodySchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireSession } from "../sessions/current.ts";
import { profileData } from "./profile.ts";

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
            "string when missing) and the applications the person may open. 401 `auth.not_authenticated` " +
            "without a live session; never a redirect.",
          response: { 200: currentUserSchema, 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        const session = await requireSession(request, reply);
        return {
          fullName: session.user.full_name,
          data: profileData(session.user, session.authMethod),
          applications: session.applications,
        };
      },
    );
  }
};
