import {
  errorBodySchema,
  recoveryCodesSchema,
  secondFactorRequestSchema,
  secondFactorStatusSchema,
  totpConfirmRequestSchema,
  totpConfirmResponseSchema,
  totpSetupSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../session/current.ts";
import { confirmTotp, regenerateRecoveryCodes, secondFactorStatus, setUpTotp, turnOffTotp } from "./account.ts";
import { proveSecondFactor } from "./second-factor.ts";

const okSchema = z.object({ ok: z.literal(true) });
const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** The second step of a password sign-in, and the account page's authenticator app and recovery codes. */
export const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/auth/second-factor",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Give the second factor after a correct password",
        description:
          "For a grant from /api/auth that answered `secondFactor`: a six-digit authenticator code (each time " +
          "step works once; one step of clock skew either way) or one of the recovery codes (each works once). " +
          "Then the grant is exchanged at /api/auth/internal as usual. Wrong codes: 401 `auth.code_invalid`, " +
          "throttled with the password's counters (429 `auth.too_many_attempts`). `rememberBrowser`: this " +
          "browser skips the code for 30 days (a signed cookie; other browsers are still asked).",
        body: secondFactorRequestSchema,
        response: { 200: okSchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await proveSecondFactor(request, reply, request.body);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/account/second-factor",
    {
      schema: {
        tags: ["account"],
        summary: "My second factor",
        response: { 200: secondFactorStatusSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => secondFactorStatus(request, await requireSession(request, reply)),
  );

  app.post(
    "/api/account/totp",
    {
      schema: {
        tags: ["account"],
        summary: "Start setting up an authenticator app",
        description:
          "Needs a recent sign-in (403 `auth.reauth_required`), with the second factor when the person holds a " +
          "passkey (403 `auth.reauth_second_factor_required`). Answers the secret and its otpauth URI for the " +
          "QR code; the app works only after its first code is confirmed. 409 `mfa.already_set_up` when one is.",
        response: { 200: totpSetupSchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => setUpTotp(request, await requireSession(request, reply)),
  );

  app.post(
    "/api/account/totp/confirm",
    {
      schema: {
        tags: ["account"],
        summary: "Confirm the authenticator app with its first code",
        description:
          "Answers ten recovery codes, shown this once. The session stays as strong as its sign-in (setting a " +
          "factor up proves nothing about who signed in); when a sign-in led the person here to set a factor " +
          "up, `next` is the sign-in screen asking for the new code, which then goes on to the application. " +
          "401 `auth.code_invalid` for a wrong code, 404 `mfa.not_set_up` without a set-up waiting.",
        body: totpConfirmRequestSchema,
        response: { 200: totpConfirmResponseSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => confirmTotp(request, await requireSession(request, reply), request.body.code),
  );

  app.post(
    "/api/account/totp/remove",
    {
      schema: {
        tags: ["account"],
        summary: "Turn the authenticator app off",
        description:
          "Needs a recent sign-in with the second factor (403 `auth.reauth_second_factor_required`); the recovery " +
          "codes go too. 404 `mfa.not_set_up` when there is none.",
        response: { 200: okSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => {
      await turnOffTotp(request, await requireSession(request, reply));
      return { ok: true as const };
    },
  );

  app.post(
    "/api/account/recovery-codes",
    {
      schema: {
        tags: ["account"],
        summary: "New recovery codes",
        description:
          "Needs a recent sign-in with the second factor (403 `auth.reauth_second_factor_required`) and an " +
          "authenticator app (404 `mfa.not_set_up`); the old codes stop working.",
        response: { 200: recoveryCodesSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => regenerateRecoveryCodes(request, await requireSession(request, reply)),
  );
};
