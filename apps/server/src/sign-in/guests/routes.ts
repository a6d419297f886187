import {
  errorBodySchema,
  guestAcceptedSchema,
  guestAcceptRequestSchema,
  guestInvitationViewSchema,
  guestTokenSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { openInvitation } from "../../model/guests/invitations.ts";
import { acceptGuestInvitation } from "./accept.ts";

/** The guest's invitation link (docs/visitors.md): what it invites to, and accepting it. */
export const guestInvitationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/guests/invitation",
    {
      schema: {
        tags: ["guests"],
        summary: "Read an invitation link",
        description:
          "Whom the link welcomes, who invited them and until when, while it is good; 400 " +
          "`guest.invitation_invalid` once used or expired. Reading it uses nothing up.",
        body: guestTokenSchema,
        response: { 200: guestInvitationViewSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      const invitation = await openInvitation(app.db, request.body.token, app.clock());
      return { fullName: invitation.fullName, sponsor: invitation.sponsor, endsAt: invitation.endsAt.toISOString() };
    },
  );

  app.post(
    "/api/guests/accept",
    {
      schema: {
        tags: ["guests"],
        summary: "Accept an invitation",
        description:
          "The address the invitation was sent to and a new password: the link is used up, the guest signed in " +
          "and sent on to set up their second factor (`next`). Another address, a used or expired link: 400 " +
          "`guest.invitation_invalid` (addresses tried on one link are throttled, 429); a weak password: 400 with " +
          "the password policy's code, the link still good.",
        body: guestAcceptRequestSchema,
        response: { 200: guestAcceptedSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => ({ next: await acceptGuestInvitation(request, reply, request.body) }),
  );
};
