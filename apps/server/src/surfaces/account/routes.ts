import {
  accountActivityListSchema,
  accountSessionsSchema,
  endedSessionsSchema,
  endSessionRequestSchema,
  errorBodySchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { endSessions } from "../../model/sessions/end-sessions.ts";
import { liveSessionsOf } from "../../model/sessions/live.ts";
import { requireRecentSignIn } from "../../model/sessions/recent-sign-in.ts";
import { AppError } from "../../platform/errors.ts";
import { requestOrigin } from "../../platform/http/audit.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { requireSession } from "../../sign-in/session/current.ts";
import { activityDays, recentActivityOf } from "./activity.ts";

/** The account page's view of the person's sessions (list them, end one, end all others) and activity. */
export const accountSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/account/activity",
    {
      schema: {
        tags: ["account"],
        summary: "My recent security activity",
        description:
          `The signed-in person's own sign-ins (method, device, address, success or failure) and account ` +
          `changes from the audit log, the last ${activityDays} days, newest first.`,
        response: { 200: accountActivityListSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return { events: await recentActivityOf(app.db, session.userId, app.clock()) };
    },
  );

  app.get(
    "/api/account/sessions",
    {
      schema: {
        tags: ["account"],
        summary: "My live sessions",
        description:
          "Every live session of the signed-in person: browser and system (from the user agent), sign-in " +
          "method, when it started, last activity, address; `current` marks the asking browser's.",
        response: { 200: accountSessionsSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      return { sessions: await liveSessionsOf(app.db, session.userId, session.id, app.clock()) };
    },
  );

  app.post(
    "/api/account/sessions/end",
    {
      schema: {
        tags: ["account"],
        summary: "End one of my sessions",
        description:
          "Signs that browser out at once; the OpenID Connect sessions started in it end too and their " +
          "applications get a back-channel logout. Needs a recent sign-in, as ending all others does: otherwise " +
          "403 `auth.reauth_required`. 404 `account.session_not_found` for a session that is not the person's " +
          "or has ended.",
        body: endSessionRequestSchema,
        response: { 200: endedSessionsSchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      // The same check as ending all the others: one stolen session must not sign the owner's others out one by one.
      requireRecentSignIn(session, reauthWindow(request));
      const ended = await endSessions(
        { db: app.db, now: app.clock(), signOut: app.signOut },
        { userId: session.userId, only: request.body.sessionId },
        { reason: "one", ...requestOrigin(request) },
      );
      if (ended === 0) throw new AppError("account.session_not_found");
      return { ended };
    },
  );

  app.post(
    "/api/account/sessions/end-others",
    {
      schema: {
        tags: ["account"],
        summary: "End all my other sessions",
        description:
          "Signs every other browser of the person out, with their OpenID Connect sessions (back-channel " +
          "logout). Needs a recent sign-in: otherwise 403 `auth.reauth_required`.",
        body: z.object({}),
        response: { 200: endedSessionsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, reply);
      requireRecentSignIn(session, reauthWindow(request));
      const ended = await endSessions(
        { db: app.db, now: app.clock(), signOut: app.signOut },
        { userId: session.userId, except: session.id },
        { reason: "others", ...requestOrigin(request) },
      );
      return { ended };
    },
  );
};
