import {
  BANKID_ERROR_PARAM,
  type BankIdErrorReason,
  type BankIdPurpose,
  bankIdRedirectQuerySchema,
  banksResponseSchema,
  guestStateAcceptRequestSchema,
  guestStateAcceptStartedSchema,
  type Language,
  text,
} from "@kpi-id/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { isNavigation } from "../../platform/http/navigation.ts";
import { rememberContinueTo } from "../session/continue-cookie.ts";
import { bankIdErrorReason } from "./error-reason.ts";
import { beginGuestBankId } from "./guest-invitation.ts";
import { type BankIdRuntime, beginBankIdSignIn, completeBankIdSignIn } from "./service.ts";
import { languageOfState, readPendingBankId } from "./state.ts";

const appIdSchema = z.uuid();

/** Where a sign-in that ended without a session lands, with the reason the page explains. */
export function bankIdFailurePath(language: Language, purpose: PendingPurpose, reason: BankIdErrorReason): string {
  const query = new URLSearchParams({ [BANKID_ERROR_PARAM]: reason });
  if (purpose === "recovery") return `/${language}/forgot-password?via=bankid&${query}`;
  // The invitation page, without its token (it lives in the mail's link): the guest opens the link again.
  if (purpose === "guest") return `/${language}/guest?${query}`;
  return `/${language}/?${query}`;
}

type PendingPurpose = BankIdPurpose | "guest";

function backWithAlert(reply: FastifyReply, language: Language, purpose: PendingPurpose, error: unknown) {
  return reply.redirect(bankIdFailurePath(language, purpose, bankIdErrorReason(error)), 302);
}

const authQuerySchema = z.object({
  code: text().min(1).max(2048).optional(),
  state: text().min(1).max(1024).optional(),
  /** BankID's refusal instead of a code (`access_denied` when the person cancels at the bank). */
  error: text().max(64).optional(),
  error_description: text().max(1024).optional(),
  /** The return page's language (/{lang}/bankid-auth), for an answer no pending sign-in of this browser names. */
  lang: text().max(8).optional(),
});

/** Sign-in with BankID NBU: the redirect to NBU, the answer the /{lang}/bankid-auth page forwards, the bank list. */
export const bankIdRoutes =
  (runtime: BankIdRuntime | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    const requireRuntime = () => {
      if (!runtime) throw new AppError("bankid.not_configured", { retryAfterSeconds: 30 });
      return runtime;
    };

    app.get(
      "/api/bankid/redirect",
      {
        schema: {
          tags: ["sign-in"],
          summary: "Start signing in (or recovering a password) with BankID NBU",
          description:
            "Redirects to NBU's authorize URL (`redirect_uri` {PUBLIC_URL}/bankid-auth, one for both languages, `bank_id` when " +
            "`bank` names a workable bank of `GET /api/banks`, `dataset` for V2). `state` is random and bound to a " +
            "short-lived signed HttpOnly cookie with the purpose and the bank's memberId; an appId (sign-in " +
            "only) is kept in the pending sign-in cookie with the application's own `state` and `redirectUri`. " +
            "A browser whose sign-in cannot start is sent to `/{lang}/?bankid_auth_error={reason}` (recovery: " +
            "`/{lang}/forgot-password?via=bankid&bankid_auth_error={reason}`); other callers get 400 " +
            "`request.validation_failed`, 401 `bankid.failed` (a bank that is not workable), 502 " +
            "`bankid.unavailable` or 503 `bankid.not_configured`.",
          querystring: bankIdRedirectQuerySchema,
        },
      },
      async (request, reply) => {
        const { bank, appId, state, redirectUri } = request.query;
        const purpose = request.query.purpose ?? "signin";
        const language = requestLanguage(request);
        try {
          if (appId !== undefined && appId !== "" && !appIdSchema.safeParse(appId).success) {
            throw new AppError("request.validation_failed", {
              details: [{ path: "querystring.appId", message: "not a uuid" }],
            });
          }
          const url = await beginBankIdSignIn(requireRuntime(), reply, { language, purpose, bankId: bank });
          if (appId && purpose === "signin")
            rememberContinueTo(reply, { kind: "application", appId, state, redirectUri });
          return reply.redirect(url.href, 302);
        } catch (error) {
          if (error instanceof AppError && isNavigation(request)) return backWithAlert(reply, language, purpose, error);
          throw error;
        }
      },
    );

    app.post(
      "/api/guests/accept/bankid",
      {
        schema: {
          tags: ["guests"],
          summary: "Accept an invitation with BankID NBU",
          description:
            "A good invitation link and the address it was sent to: answers NBU's authorize URL for the browser to " +
            "open; the token and address wait in the signed pending BankID cookie. When the bank answers " +
            "(/bankid/auth) the link is used up for that address only, the guest takes the state's name and tax " +
            "id (identity-proofed) and is signed in with BankID, no password needed. A tax id already on another " +
            "person sends the browser to `/{lang}/guest?bankid_auth_error=identity_linked`, the link still good. " +
            "400 `guest.invitation_invalid` for a used or expired link; 503 `bankid.not_configured`.",
          body: guestStateAcceptRequestSchema,
          response: { 200: guestStateAcceptStartedSchema },
        },
      },
      async (request, reply) => {
        const language = requestLanguage(request);
        const url = await beginGuestBankId(requireRuntime(), request, reply, { ...request.body, language });
        return { url: url.href };
      },
    );

    app.get(
      "/bankid/auth",
      {
        schema: {
          tags: ["sign-in"],
          summary: "Finish signing in (or recovering a password) with BankID NBU",
          description:
            "The /{lang}/bankid-auth page sends the browser here with NBU's `code` and `state` (or `error` and " +
            "`state`). Checks them against this browser's pending sign-in cookie, exchanges the code (form-encoded " +
            "token call), asks for the person's data, decrypts the envelope with the organisation's key, verifies " +
            "the bank's signature and certificate chain and the bank's memberId, and finds the campus person by " +
            "tax id (check digit valid), else by identity document, never by name. A sign-in sets the session " +
            "(`BANK_ID`, strong like Diia) and redirects (302) where it continues; a recovery redirects to " +
            "`/{lang}/reset-password#token=…`. Failures go to `/{lang}/?bankid_auth_error={reason}` (recovery: " +
            "`/{lang}/forgot-password?via=bankid&bankid_auth_error={reason}`). Other callers get 200 `{ok: true}` " +
            "or 401 `bankid.failed` / 502 `bankid.unavailable`. Throttled per address: 429 `auth.too_many_attempts`.",
          querystring: authQuerySchema,
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
      async (request, reply) => {
        const pending = readPendingBankId(request);
        const language =
          pending?.language ?? languageOfState(request.query.state) ?? requestLanguage(request, request.query.lang);
        const purpose = pending?.purpose ?? "signin";
        try {
          const next = await completeBankIdSignIn(requireRuntime(), request, reply, request.query);
          return isNavigation(request) ? reply.redirect(next, 302) : { ok: true as const };
        } catch (error) {
          if (error instanceof AppError && isNavigation(request)) return backWithAlert(reply, language, purpose, error);
          throw error;
        }
      },
    );

    app.get(
      "/api/banks",
      {
        schema: {
          tags: ["sign-in"],
          summary: "Banks a person may sign in with through BankID NBU",
          description:
            "The banks NBU lists as workable, in NBU's order, with absolute logo URLs; NBU's list is kept for " +
            "BANKID_BANKS_CACHE_SECONDS and in the database: when NBU's list fails, the last good one answers with " +
            "`stale: true` and `listedAt`. 503 `bankid.not_configured`, 502 `bankid.unavailable` (no list at all).",
          response: { 200: banksResponseSchema },
        },
      },
      async () => {
        const list = await requireRuntime().client.bankList();
        const banks = list.banks.filter((bank) => bank.workable);
        return {
          banks: banks.map(({ id, name, logoUrl }) => ({ id, name, ...(logoUrl ? { logoUrl } : {}) })),
          ...(list.stale ? { stale: true, listedAt: list.fetchedAt.toISOString() } : {}),
        };
      },
    );
  };
