import {
  developerApplicationParamsSchema,
  developerInvitationParamsSchema,
  developerLeaveSchema,
  developerMembershipsSchema,
  errorBodySchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { acceptInvitation, declineInvitation, membershipsOf } from "../../model/developers/memberships.ts";
import { removePerson } from "../../model/developers/people.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["developers"];
const refusals = { 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const params = developerInvitationParamsSchema;

/** The invited person's side: the notice on their developers' page, accepting, declining, leaving. */
export const developerMembershipRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/developers/invitations",
    {
      schema: {
        tags,
        summary: "Invitations to me and applications I test",
        description:
          "The signed-in person's waiting invitations (to be a co-owner or tester, with the inviting owner's " +
          "username and when it expires) and the applications they test, each to leave.",
        response: { 200: developerMembershipsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      return membershipsOf(app.db, userId, app.clock());
    },
  );

  const answers = {
    accept: {
      summary: "Accept an invitation",
      description:
        "Makes the person a co-owner or tester now. 409 `developer.limit_reached` when they already own " +
        "DEVELOPER_MAX_APPLICATIONS applications, 409 `developer.tester_limit` past 25 testers (the invitation " +
        "then waits); 404 `developer.invitation_not_found` for one withdrawn, expired, answered or not theirs.",
      type: "application_invitation_accepted",
      answer: (userId: string, invitation: string) =>
        acceptInvitation(app.db, userId, invitation, app.config.developers.maxApplications, app.clock()),
    },
    decline: {
      summary: "Decline an invitation",
      description: "Nothing changes; the invitation is gone. 404 `developer.invitation_not_found` as for accepting.",
      type: "application_invitation_declined",
      answer: (userId: string, invitation: string) => declineInvitation(app.db, userId, invitation, app.clock()),
    },
  } as const;
  for (const [path, { summary, description, type, answer }] of Object.entries(answers)) {
    app.post(
      `/api/developers/invitations/:invitation/${path}`,
      {
        schema: {
          tags,
          summary,
          description,
          params,
          body: z.object({}),
          response: { 200: developerMembershipsSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const { userId } = await requireSession(request, reply);
        const invitation = request.params.invitation;
        const answered = await answer(userId, invitation);
        const details = { role: answered.role, invitation };
        await audit(request, { type, result: "success", userId, applicationId: answered.applicationId, details });
        return membershipsOf(app.db, userId, app.clock());
      },
    );
  }

  app.post(
    "/api/developers/applications/:id/leave",
    {
      schema: {
        tags,
        summary: "Leave an application",
        description:
          "The signed-in person stops being its owner or tester. 409 `developer.last_owner` for its last owner; " +
          "404 `developer.application_not_found` when they are not one.",
        params: developerApplicationParamsSchema,
        body: developerLeaveSchema,
        response: { 200: developerMembershipsSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const { role } = request.body;
      const applicationId = request.params.id;
      if (!(await removePerson(app.db, applicationId, role, userId))) {
        throw new AppError("developer.application_not_found");
      }
      await audit(request, { type: "application_left", result: "success", userId, applicationId, details: { role } });
      return membershipsOf(app.db, userId, app.clock());
    },
  );
};
