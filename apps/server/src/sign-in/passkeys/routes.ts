import {
  errorBodySchema,
  internalAuthResponseSchema,
  passkeyIdSchema,
  passkeyListSchema,
  passkeyOptionsSchema,
  passkeyRegistrationRequestSchema,
  passkeyRenameRequestSchema,
  passkeySchema,
  passkeySignInRequestSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../session/current.ts";
import { passkeysOf, removeOwnPasskey, renameOwnPasskey } from "./account.ts";
import { authenticationOptions, signInWithPasskey } from "./authentication.ts";
import { registerPasskey, registrationOptions } from "./registration.ts";

const okSchema = z.object({ ok: z.literal(true) });
const emptyBody = z.object({}).strict();
const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** Passkeys (WebAuthn): signing in with one, and the account page's list. */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/api/auth/passkey/options",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Start a passkey sign-in",
        description:
          "WebAuthn request options for a discoverable credential (no username): hand `options` to " +
          "navigator.credentials.get(), with conditional mediation for the username field's autofill or " +
          "without it for a button. The challenge works once, for this browser only (an HttpOnly cookie binds " +
          "it), for five minutes.",
        body: emptyBody,
        response: { 200: passkeyOptionsSchema, 400: errorBodySchema },
      },
    },
    async (request, reply) => authenticationOptions(request, reply),
  );

  app.post(
    "/api/auth/passkey",
    {
      schema: {
        tags: ["sign-in"],
        summary: "Sign in with a passkey",
        description:
          "The browser's answer to the options. Sets the session cookie like /api/auth/internal and says where " +
          "to go `next`. The sign-in is multi-factor (`amr` hwk or swk, user, mfa). 401 `passkey.failed` for an " +
          "unknown passkey, a disabled account's or a bad signature (one answer); 401 `passkey.counter_regressed` " +
          "when the sign counter did not grow (a cloned authenticator); 401 `passkey.challenge_invalid` for a " +
          "used, expired or another browser's challenge; 429 `auth.too_many_attempts` like passwords.",
        body: passkeySignInRequestSchema,
        response: { 200: internalAuthResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { next } = await signInWithPasskey(request, reply, request.body);
      return { ok: true as const, next };
    },
  );

  app.get(
    "/api/account/passkeys",
    {
      schema: {
        tags: ["account"],
        summary: "My passkeys",
        description: "Name, authenticator (from its AAGUID, when known), synced or not, added and last used.",
        response: { 200: passkeyListSchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => passkeysOf(request, await requireSession(request, reply)),
  );

  app.post(
    "/api/account/passkeys/options",
    {
      schema: {
        tags: ["account"],
        summary: "Start adding a passkey",
        description:
          "Needs a recent sign-in (403 `auth.reauth_required`). WebAuthn creation options for " +
          "navigator.credentials.create(): a discoverable credential, user verification required, attestation " +
          "`none`. The challenge works once, for this browser and person, for five minutes.",
        body: emptyBody,
        response: { 200: passkeyOptionsSchema, ...refusals },
      },
    },
    async (request, reply) => registrationOptions(request, reply, await requireSession(request, reply)),
  );

  app.post(
    "/api/account/passkeys",
    {
      schema: {
        tags: ["account"],
        summary: "Add a passkey",
        description:
          "The browser's answer to the creation options and the person's name for the passkey. Needs a recent " +
          "sign-in. 401 `passkey.failed` or `passkey.challenge_invalid` when the answer does not check out; 409 " +
          "`passkey.already_registered` for a passkey already added.",
        body: passkeyRegistrationRequestSchema,
        response: { 200: passkeySchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => registerPasskey(request, await requireSession(request, reply), request.body),
  );

  app.post(
    "/api/account/passkeys/rename",
    {
      schema: {
        tags: ["account"],
        summary: "Rename a passkey",
        body: passkeyIdSchema.extend(passkeyRenameRequestSchema.shape),
        response: { 200: passkeySchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) =>
      renameOwnPasskey(request, await requireSession(request, reply), request.body.id, request.body.name),
  );

  app.post(
    "/api/account/passkeys/remove",
    {
      schema: {
        tags: ["account"],
        summary: "Remove a passkey",
        description: "Needs a recent sign-in. 404 `passkey.not_found` for a passkey that is not the person's.",
        body: passkeyIdSchema,
        response: { 200: okSchema, 404: errorBodySchema, ...refusals },
      },
    },
    async (request, reply) => {
      await removeOwnPasskey(request, await requireSession(request, reply), request.body.id);
      return { ok: true as const };
    },
  );
};
