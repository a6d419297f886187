import {
  errorBodySchema,
  guestExtendRequestSchema,
  guestInvitationRequestSchema,
  guestSchema,
  sponsorGuestsSchema,
} from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { checkedEnd, markGuestEnded, moveGuestEnd } from "../../model/guests/changes.ts";
import { latestEndDay } from "../../model/guests/days.ts";
import { guestInvitationMail } from "../../model/guests/mail.ts";
import {
  maySponsor,
  requireChoicesAllowed,
  requireSponsor,
  sponsorApplications,
  sponsorUnits,
} from "../../model/guests/sponsors.ts";
import { createGuest } from "../../model/guests/store.ts";
import { takeGuestInvitation } from "../../model/guests/throttle.ts";
import { guestsOfSponsor } from "../../model/guests/views.ts";
import { disableUser } from "../../model/sessions/disable.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, requestOrigin } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { sendInBackground } from "../../platform/mail/mailer.ts";
import { requireSession } from "../../sign-in/session/current.ts";

const tags = ["account"];
const idParams = z.object({ id: z.uuid() });
const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
// A sponsor's card keeps ended guests for a month, so "why can my guest not sign in" has an answer.
const endedShownMs = 30 * 24 * 60 * 60 * 1000;

function english(request: FastifyRequest): boolean {
  return requestLanguage(request) === "en";
}

async function guestAnswer(request: FastifyRequest, sponsorId: string, guestId: string) {
  const { db, clock } = request.server;
  const guests = await guestsOfSponsor(db, sponsorId, english(request), new Date(clock().getTime() - endedShownMs));
  const guest = guests.find((each) => each.id === guestId);
  if (!guest) throw new AppError("guest.not_found");
  return guest;
}

/** The account page's sponsored guests (docs/visitors.md): invite, list, extend, end. */
export const accountGuestRoutes: FastifyPluginAsyncZod = async (app) => {
  const rule = () => ({ sponsorUnits: app.config.guests.sponsorUnits });

  app.get(
    "/api/account/guests",
    {
      schema: {
        tags,
        summary: "My guests",
        description:
          "Whether the person may sponsor guests (staff, as GUEST_SPONSOR_UNITS allows; never a guest), their " +
          "guests (ended ones for a month), the units and applications they may name, and the latest end allowed.",
        response: { 200: sponsorGuestsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const now = app.clock();
      const mayInvite = await maySponsor(app.db, session.userId, rule());
      const inEnglish = english(request);
      return {
        mayInvite,
        guests: await guestsOfSponsor(app.db, session.userId, inEnglish, new Date(now.getTime() - endedShownMs)),
        units: mayInvite ? await sponsorUnits(app.db, session.userId, rule(), inEnglish) : [],
        applications: mayInvite ? await sponsorApplications(app.db, session.userId, inEnglish) : [],
        latestEndOn: latestEndDay(now, app.config.guests.maxDays),
        limit: app.config.guests.perSponsor,
      };
    },
  );

  app.post(
    "/api/account/guests",
    {
      schema: {
        tags,
        summary: "Invite a guest",
        description:
          "Makes the guest's account (affiliation `affiliate`, a second factor required) and mails the invitation " +
          "in the language chosen; the link works once, only for the address given. 403 `guest.not_sponsor`, " +
          "400 `guest.end_too_late` past GUEST_MAX_DAYS, 409 `guest.sponsor_limit` / `guest.unit_limit`, 429 " +
          "`guest.too_many_invitations` past GUEST_INVITATIONS_PER_HOUR.",
        body: guestInvitationRequestSchema,
        response: { 200: guestSchema, ...refusals, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const { guests: settings, sessionSecret, publicUrl } = app.config;
      const now = app.clock();
      const body = request.body;
      await requireSponsor(app.db, session.userId, rule());
      await takeGuestInvitation(app.db, sessionSecret, session.userId, settings.invitationsPerHour, now);
      const endsAt = checkedEnd(body.endsOn, now, settings.maxDays);
      await requireChoicesAllowed(app.db, session.userId, rule(), body);
      const created = await createGuest(app.db, { ...body, sponsorId: session.userId, endsAt }, settings, now);
      // In the fragment, as a reset link: the token reaches no server log and no Referer.
      const link = `${publicUrl}/${body.language}/guest#token=${created.token}`;
      const facts = { sponsor: session.user.full_name, endsAt, link, linkExpiresAt: created.invitationExpiresAt };
      sendInBackground(app, guestInvitationMail(body.email, body.language, facts));
      await audit(request, {
        type: "guest_invited",
        result: "success",
        userId: created.userId,
        actorId: session.userId,
        details: { endsAt: endsAt.toISOString(), units: body.unitIds.length, applications: body.applicationIds.length },
      });
      return guestAnswer(request, session.userId, created.userId);
    },
  );

  app.post(
    "/api/account/guests/:id/extend",
    {
      schema: {
        tags,
        summary: "Extend a guest",
        description:
          "Without a day: to the furthest end allowed today (GUEST_MAX_DAYS). A day past it is refused (400 " +
          "`guest.end_too_late`); 404 `guest.not_found` for someone not the caller's guest, 409 `guest.ended`.",
        params: idParams,
        body: guestExtendRequestSchema,
        response: { 200: guestSchema, ...refusals, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      await requireSponsor(app.db, session.userId, rule());
      const endsAt = checkedEnd(request.body.endsOn, app.clock(), app.config.guests.maxDays);
      await moveGuestEnd(app.db, session.userId, request.params.id, endsAt);
      await audit(request, {
        type: "guest_extended",
        result: "success",
        userId: request.params.id,
        actorId: session.userId,
        details: { endsAt: endsAt.toISOString() },
      });
      return guestAnswer(request, session.userId, request.params.id);
    },
  );

  app.post(
    "/api/account/guests/:id/end",
    {
      schema: {
        tags,
        summary: "End a guest now",
        description:
          "The guest is disabled at once (sessions ended, Wi-Fi refused, applications told), their data erased after " +
          "GUEST_ERASE_AFTER_DAYS. A sponsor who no longer may sponsor can still end their guests.",
        params: idParams,
        body: z.object({}).optional(),
        response: { 200: guestSchema, ...refusals, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      const now = app.clock();
      const ended = await markGuestEnded(app.db, request.params.id, now, session.userId);
      if (!ended) {
        await guestAnswer(request, session.userId, request.params.id);
        throw new AppError("guest.ended");
      }
      const ending = { db: app.db, now, signOut: app.signOut };
      await disableUser(ending, request.params.id, { actorId: session.userId, ...requestOrigin(request) });
      await audit(request, {
        type: "guest_ended",
        result: "success",
        userId: request.params.id,
        actorId: session.userId,
        reason: "sponsor",
      });
      return guestAnswer(request, session.userId, request.params.id);
    },
  );
};
