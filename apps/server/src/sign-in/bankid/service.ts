import type { BankIdPurpose, Language } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { findPersonForBankId } from "../../model/bankid/person.ts";
import { issueResetToken } from "../../model/recovery/tokens.ts";
import { sameText } from "../../platform/crypto/tokens.ts";
import { AppError, hasCode } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestThrottleAddress } from "../../platform/http/throttle-address.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import { settleSuccess, type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";
import { resetLinkUrl } from "../recovery/email.ts";
import { completeSignIn } from "../session/complete-sign-in.ts";
import { failureForApiError } from "./api-errors.ts";
import type { Bank, BankIdClient } from "./client.ts";
import type { EnvelopeOpener } from "./crypto/envelope-opener.ts";
import { acceptInvitationWithBankId } from "./guest-invitation.ts";
import { type BankPerson, readBankPerson } from "./person-data.ts";
import type { BankIdKeys } from "./runtime.ts";
import {
  clearPendingBankId,
  newState,
  type PendingBankIdSignIn,
  readPendingBankId,
  setPendingBankId,
} from "./state.ts";

export interface BankIdRuntime {
  client: BankIdClient;
  keys: BankIdKeys;
  /** Opens the bank's answers off the event loop (crypto/envelope-opener.ts). */
  envelopes: EnvelopeOpener;
  /** The site's public address: redirect_uri is {publicUrl}/bankid-auth. */
  publicUrl: string;
}

/** One callback address for both languages (NBU may register only one); the state carries the language. */
export function redirectUriFor(publicUrl: string): string {
  return `${publicUrl}/bankid-auth`;
}

/** A bank the person may pick: one NBU lists as workable. */
export async function workableBanks(client: BankIdClient): Promise<Bank[]> {
  return (await client.banks()).filter((bank) => bank.workable);
}

/** Remembers state (and the bank picked) in this browser's cookie; answers NBU's authorize URL. */
export async function beginBankIdSignIn(
  runtime: BankIdRuntime,
  reply: FastifyReply,
  request: { language: Language; purpose: BankIdPurpose; bankId?: string },
): Promise<URL> {
  let bank: Bank | undefined;
  if (request.bankId) {
    bank = (await workableBanks(runtime.client)).find((each) => each.id === request.bankId);
    if (!bank) throw new AppError("bankid.failed", { reason: "bankid.bank_unavailable" });
  }
  const state = newState(request.language);
  setPendingBankId(reply, {
    state,
    purpose: request.purpose,
    language: request.language,
    bankId: bank?.id,
    memberId: bank?.memberId,
  });
  const redirectUri = redirectUriFor(runtime.publicUrl);
  return runtime.client.authorizeUrl({ state, redirectUri, bankId: bank?.id });
}

/** Whether the browser's pending BankID sign-in is a password recovery (its failures go to that page). */
export function pendingPurpose(request: FastifyRequest): PendingBankIdSignIn["purpose"] {
  return readPendingBankId(request)?.purpose ?? "signin";
}

/** The answer's bank must be the one picked; with NBU's own chooser, one NBU lists. */
async function checkMember(runtime: BankIdRuntime, pending: PendingBankIdSignIn, memberId: string): Promise<void> {
  const known = pending.memberId
    ? pending.memberId === memberId
    : (await runtime.client.banks()).some((bank) => bank.memberId === memberId);
  if (!known) throw new AppError("bankid.failed", { reason: "bankid.wrong_member" });
}

export interface BankIdAnswer {
  code?: string;
  state?: string;
  error?: string;
}

function pendingFor(request: FastifyRequest, state: string | undefined): PendingBankIdSignIn {
  const pending = readPendingBankId(request);
  if (!pending) throw new AppError("bankid.failed", { reason: "bankid.no_pending_sign_in" });
  if (!state || !sameText(pending.state, state))
    throw new AppError("bankid.failed", { reason: "bankid.state_mismatch" });
  return pending;
}

/** What the bank says of the person: code → token → data → envelope (decrypted, bank's signature). */
async function bankPersonOf(
  runtime: BankIdRuntime,
  request: FastifyRequest,
  pending: PendingBankIdSignIn,
  code: string,
): Promise<BankPerson> {
  const { client, keys } = runtime;
  const token = await client.accessToken(code, redirectUriFor(runtime.publicUrl));
  const answer = await client.personData(token, keys.certificateBase64);
  await checkMember(runtime, pending, answer.memberId);
  const now = request.server.clock();
  await keys.crls?.refreshIfDue(now);
  // In the envelope's worker thread, in turn; past its line's bound, 429 request.rate_limited (issue 80).
  const opened = await runtime.envelopes.open(answer.customerCrypto, now, {
    certificate: answer.cert,
    memberId: answer.memberId,
  });
  if (!opened.ok) throw new AppError("bankid.failed", { reason: `bankid.envelope_${opened.reason}` });
  return readBankPerson(opened.data);
}

/** Forgot password with BankID: proof of who the person is becomes a reset token instead of a session. */
async function resetPageFor(request: FastifyRequest, userId: string, language: Language): Promise<string> {
  const { db, config, clock } = request.server;
  const token = await issueResetToken(db, userId, "bankid", config.passwordResetTtlSeconds, clock());
  await audit(request, {
    type: "password_reset_request",
    result: "success",
    authMethod: "BANK_ID",
    userId,
    reason: "bankid",
  });
  // The reset page reads the token from the fragment, which reaches no server log and no Referer.
  return resetLinkUrl("", language, token);
}

/**
 * Finishes a BankID sign-in (or recovery): the answer must match this browser's pending sign-in, the
 * bank's data must open and verify, and name exactly one active campus person. Every outcome is audited.
 * Answers where the browser goes next.
 */
export async function completeBankIdSignIn(
  runtime: BankIdRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: BankIdAnswer,
): Promise<string> {
  const purpose = pendingPurpose(request);
  const eventType =
    purpose === "recovery" ? "password_reset_request" : purpose === "guest" ? "guest_accepted" : "sign_in";
  // The pending sign-in is good for one answer, whatever that answer turns out to be.
  clearPendingBankId(reply);
  const { db, clock } = request.server;
  const throttle: ThrottleKey[] = [{ key: `bankid-ip:${requestThrottleAddress(request)}`, rule: throttlePolicy.ip }];
  const attempt = await takeAttempt(db, throttle, clock());
  if (!attempt.allowed) {
    await audit(request, {
      type: eventType,
      result: "failure",
      authMethod: "BANK_ID",
      reason: "auth.too_many_attempts",
    });
    throw new AppError("auth.too_many_attempts", { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  let userId: string | undefined;
  let next: string;
  try {
    const pending = pendingFor(request, answer.state);
    if (answer.error) throw failureForApiError(answer.error);
    if (!answer.code) throw new AppError("bankid.failed", { reason: "bankid.no_code" });
    const bankPerson = await bankPersonOf(runtime, request, pending, answer.code);
    if (pending.purpose === "guest") {
      userId = await acceptInvitationWithBankId(request, pending, bankPerson);
      const signedIn = await completeSignIn(request, reply, { userId, method: "BANK_ID" });
      await settleSuccess(db, throttle);
      return signedIn.next;
    }
    const person = await findPersonForBankId(db, bankPerson);
    userId = person.id;
    next =
      pending.purpose === "recovery"
        ? await resetPageFor(request, person.id, pending.language)
        : (await completeSignIn(request, reply, { userId: person.id, method: "BANK_ID", person })).next;
  } catch (error) {
    // The envelope's line full (request.rate_limited): nothing was checked, the person starts again (`busy`).
    const reason =
      hasCode(error, "bankid.failed") || hasCode(error, "bankid.unavailable")
        ? error.reason
        : hasCode(error, "request.rate_limited")
          ? "request.rate_limited"
          : null;
    if (reason !== null)
      await audit(request, { type: eventType, result: "failure", authMethod: "BANK_ID", userId, reason });
    throw error;
  }
  await settleSuccess(db, throttle);
  if (purpose === "signin") await audit(request, { type: "sign_in", result: "success", authMethod: "BANK_ID", userId });
  return next;
}
