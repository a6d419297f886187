import {
  developerApplicationParamsSchema,
  developerApplicationSchema,
  developerInvitationWithdrawalSchema,
  developerPersonRemovalSchema,
  developerPersonRequestSchema,
  errorBodySchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mailInvitation } from "../../model/developers/invitation-mail.ts";
import { mayMailInvitee, takeInvitationAttempt } from "../../model/developers/invitation-throttle.ts";
import { invite, withdrawInvitation } from "../../model/developers/invitations.ts";
import { type ApplicationRole, memberNamed, removePerson } from "../../model/developers/people.ts";
import { ownedApplication } from "../../model/developers/store.ts";
import { applicationDetail } from "../../model/developers/view.ts";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import { recordAuditEvent, recordAuditEvents } from "../../platform/audit/record.ts";
import { audit, countAuditEvent, requestOrigin } from "../../platform/http/audit.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { sendInBackground } from "../../platform/mail/mailer.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["developers"];
const refusals = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
const roles: Record<"owners" | "testers", ApplicationRole> = { owners: "owner", testers: "tester" };

/** Co-owners and testers of a person's own application: invited, listed, removed; invitations withdrawn. */
export const developerPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [path, role] of Object.entries(roles)) {
    app.post(
      `/api/developers/applications/:id/${path}`,
      {
        schema: {
          tags,
          summary: role === "owner" ? "Invite a co-owner" : "Invite a tester",
          description:
            "Invites one person by exact username or e-mail address. The answer is the same whether or not " +
            "anyone holds it (the invitation is listed among `invitations` either way, expiring after 14 days); " +
            "the person, when there is exactly one active person of that name, gets a mail and a notice on their " +
            "developers' page and becomes a member only when they accept. 429 `developer.too_many_invitations` " +
            "past 10 invitations an hour per person or 3 an hour to one name" +
            (role === "owner"
              ? "; 403 `auth.reauth_required` without a recent sign-in."
              : "; 409 `developer.tester_limit` past 25 testers and invitations."),
          params: developerApplicationParamsSchema,
          body: developerPersonRequestSchema,
          response: { 200: developerApplicationSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const session = await requireSession(request, reply);
        const { userId } = session;
        const row = await ownedApplication(app.db, userId, request.params.id);
        if (role === "owner") requireRecentSignIn(session, reauthWindow(request));
        const named = request.body.person;
        const throttle = { db: app.db, secret: app.config.sessionSecret, now: app.clock() };
        await takeInvitationAttempt(throttle, userId, named);
        const sent = await invite(app.db, row.id, role, named, userId, app.clock());
        const details = { role, invitation: sent.id };
        const sentEvent = {
          type: "application_invitation_sent",
          result: "success",
          userId,
          applicationId: row.id,
          details,
        } as const;
        // One statement either way, so whether the name reached anyone takes no longer to answer. The invitee's
        // row (in their activity) carries neither the inviter's address nor browser: those are the inviter's.
        const received = sent.invitee
          ? [
              {
                ...sentEvent,
                type: "application_invitation_received" as const,
                userId: sent.invitee.id,
                occurredAt: app.clock(),
              },
            ]
          : [];
        countAuditEvent(request, sentEvent);
        await recordAuditEvents(app.db, [
          { ...sentEvent, ...requestOrigin(request), occurredAt: app.clock() },
          ...received,
        ]);
        const mayMail = await mayMailInvitee(throttle, sent.invitee?.id, named);
        if (sent.invitee && mayMail) {
          const facts = { role, application: row, inviter: session.user.username, expiresAt: sent.expiresAt };
          mailInvitation((mail) => sendInBackground(app, mail), app.config.publicUrl, sent.invitee, facts);
        }
        return applicationDetail(app.db, row, userId);
      },
    );

    app.post(
      `/api/developers/applications/:id/${path}/remove`,
      {
        schema: {
          tags,
          summary: role === "owner" ? "Remove a co-owner" : "Remove a tester",
          description:
            "Names the member by the username the list shows; a name that is not a member changes nothing. " +
            (role === "owner"
              ? "An owner may remove any owner, themselves too, but not the last (409 `developer.last_owner`)."
              : "The person can no longer sign in while the application is not live."),
          params: developerApplicationParamsSchema,
          body: developerPersonRemovalSchema,
          response: { 200: developerApplicationSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const { userId } = await requireSession(request, reply);
        const row = await ownedApplication(app.db, userId, request.params.id);
        const member = await memberNamed(app.db, row.id, role, request.body.username);
        if (member && (await removePerson(app.db, row.id, role, member))) {
          const itself = member === userId;
          await audit(request, {
            type: itself ? "application_left" : "application_people_changed",
            result: "success",
            userId,
            applicationId: row.id,
            details: { role, change: "removed", person: member },
          });
          if (!itself) {
            await recordAuditEvent(app.db, {
              type: "application_people_changed",
              result: "success",
              userId: member,
              applicationId: row.id,
              occurredAt: app.clock(),
              details: { role, change: "removed", by: userId },
            });
          }
        }
        // An owner who removed themselves no longer sees it: the list is theirs to go back to.
        return applicationDetail(app.db, row, userId);
      },
    );
  }

  app.post(
    "/api/developers/applications/:id/invitations/withdraw",
    {
      schema: {
        tags,
        summary: "Withdraw an invitation",
        description:
          "Takes back a waiting invitation by its id (from `invitations`); the person's notice goes. " +
          "404 `developer.invitation_not_found` for one already answered, expired or of another application.",
        params: developerApplicationParamsSchema,
        body: developerInvitationWithdrawalSchema,
        response: { 200: developerApplicationSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { userId } = await requireSession(request, reply);
      const row = await ownedApplication(app.db, userId, request.params.id);
      const withdrawn = await withdrawInvitation(app.db, row.id, request.body.invitation);
      const details = { role: withdrawn.role, invitation: request.body.invitation };
      await audit(request, {
        type: "application_invitation_withdrawn",
        result: "success",
        userId,
        applicationId: row.id,
        details,
      });
      if (withdrawn.user_id) {
        await recordAuditEvent(app.db, {
          type: "application_invitation_withdrawn",
          result: "success",
          userId: withdrawn.user_id,
          applicationId: row.id,
          occurredAt: app.clock(),
          details,
        });
      }
      return applicationDetail(app.db, row, userId);
    },
  );
};
