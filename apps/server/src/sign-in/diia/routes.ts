import { diiaAppLinkSchema, diiaCheckRequestSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { findActiveUserIdByTaxId } from "../../model/users/method-lookups.ts";
import { AppError } from "../../platform/errors.ts";
import { bindCaller, pollerOf } from "./browser-binding.ts";
import { acceptCallback } from "./callback.ts";
import type { DiiaClient } from "./client.ts";
import type { CrlStore } from "./crypto/crl-store.ts";
import type { OcspStore } from "./crypto/ocsp-store.ts";
import type { DiiaSignatureVerifier } from "./crypto/verifier.ts";
import { takeAppLinkAttempt } from "./link-throttle.ts";
import { checkRequest, createAppLink, type DiiaLinkSettings } from "./service.ts";

/** Everything sign-in with Diia needs; absent when Diia is not configured. */
export interface DiiaRuntime {
  client: DiiaClient;
  verifier: DiiaSignatureVerifier;
  /** The signers' CAs' CRLs when DIIA_CRLS is set. */
  crls?: CrlStore | undefined;
  /** The signers' OCSP answers when DIIA_OCSP is set. */
  ocsp?: OcspStore | undefined;
  settings: DiiaLinkSettings;
}

export interface DiiaRoutesOptions {
  runtime?: DiiaRuntime;
}

// A CMS signature with its certificate is a few KiB; base64 and multipart framing add a third.
const callbackBodyLimit = 256 * 1024;

export const diiaRoutes: FastifyPluginAsyncZod<DiiaRoutesOptions> = async (app, { runtime }) => {
  const required = (): DiiaRuntime => {
    if (!runtime) throw new AppError("diia.not_configured");
    return runtime;
  };

  app.addContentTypeParser(
    ["multipart/form-data", "multipart/mixed"],
    { parseAs: "buffer", bodyLimit: callbackBodyLimit },
    (_request, body, done) => done(null, body),
  );

  app.get(
    "/api/diia/app-link",
    {
      schema: {
        tags: ["diia"],
        summary: "Start a sign-in with Diia",
        description:
          "Asks Diia for a deep link (shown as a QR code) for a new sign-in request. `requestId` is then polled at " +
          "/api/diia/check-request by the same caller: the answer sets an HttpOnly cookie binding the request " +
          "to a browser; a server-side caller (no Origin, no Sec-Fetch-Site, no cookie) may poll without it from " +
          "the same address. The deep link carries only Diia's hash of `requestId`. The link lives DIIA_REQUEST_TTL_SECONDS " +
          "(about 3 minutes). " +
          "Counted per address: past 120 an hour the address slows down (429 with Retry-After).",
        response: { 200: diiaAppLinkSchema },
      },
    },
    async (request, reply) => {
      const { client, settings } = required();
      await takeAppLinkAttempt(request);
      return createAppLink({ db: app.db, client, settings, now: app.clock(), caller: bindCaller(request, reply) });
    },
  );

  app.get(
    "/api/diia/check-request",
    {
      schema: {
        tags: ["diia"],
        summary: "Poll a Diia sign-in request",
        description:
          "Processing until Diia delivers the signature; Finished carries `sessionId`, a one-time login grant " +
          "for POST /api/auth/internal, handed out once; Failed and Expired end the request. Only the caller " +
          "holding the cookie GET /api/diia/app-link set gets an answer (or, for a request a server-side caller " +
          "made, that caller without a cookie from the same address); anyone else gets 404 diia.request_not_found.",
        querystring: z.object({ requestId: z.uuid() }),
        response: { 200: diiaCheckRequestSchema },
      },
    },
    async (request) => {
      required();
      const asked = { id: request.query.requestId, poller: pollerOf(request) };
      return checkRequest(app.db, asked, app.clock(), app.config.loginGrantTtlSeconds);
    },
  );

  app.post(
    "/api/diia/callback",
    {
      // Diia's servers post here, not a browser: no Origin, multipart body.
      config: { csrf: false },
      bodyLimit: callbackBodyLimit,
      schema: {
        tags: ["diia"],
        summary: "Diia's delivery of a signed sign-in (server to server)",
        description:
          "multipart/form-data or multipart/mixed with headers X-Document-Request-Trace-Id and " +
          "X-Diia-Id-Action: auth; part `encodeData` is base64 JSON {requestId, signature}. Answered as " +
          "Diia's SDK samples answer: 200 with `success` true, or false for any delivery refused (the " +
          "reason stays in KPI ID's log, audit trail and the request's polled state).",
        response: { 200: z.object({ success: z.boolean() }) },
      },
    },
    async (request) => {
      const { verifier } = required();
      const now = app.clock();
      const outcome = await acceptCallback(request, {
        verifier,
        now,
        findUserIdByTaxId: (taxId) => findActiveUserIdByTaxId(app.db, taxId),
      });
      if (outcome.success) return { success: true };
      request.log.warn({ reason: `diia.${outcome.reason}` }, "Diia callback refused");
      return { success: false };
    },
  );
};
