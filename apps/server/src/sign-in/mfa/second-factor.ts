import type { SecondFactorRequest } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { useRecoveryCode } from "../../model/mfa/recovery-codes.ts";
import { checkTotpCode, totpState } from "../../model/mfa/totp.ts";
import { grantOwingSecondFactor, settleSecondFactor } from "../../model/sessions/grants.ts";
import { withOneTimeCode } from "../../model/sessions/strength.ts";
import { findUserById } from "../../model/users/queries.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { confirmFailure, secondFactorThrottleKey, settleSuccess } from "../../platform/throttle/throttle.ts";
import { takeCredentialAttempt } from "../grants/credential-attempt.ts";
import { rememberBrowser } from "./remembered-browser.ts";

/** A six-digit code is the authenticator's; anything else is tried as a recovery code. */
export async function checkSecondFactorCode(request: FastifyRequest, userId: string, code: string): Promise<boolean> {
  const { db, config, clock } = request.server;
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) return checkTotpCode(db, config.sessionSecrets, userId, typed, clock());
  return useRecoveryCode(db, userId, typed, clock());
}

/**
 * The second step of a password (or Google) sign-in: the code for a grant that owes it. Wrong codes count
 * against the same throttle as wrong passwords (the account's, the address's, or this browser's own when it
 * signed in to the account before), so a code cannot be guessed faster than a password, and also against the
 * person's own second-factor counter, which a correct password does not clear: only a correct code does.
 */
export async function proveSecondFactor(
  request: FastifyRequest,
  reply: FastifyReply,
  { sessionId, code, rememberBrowser: remember }: SecondFactorRequest,
): Promise<void> {
  const { db, clock } = request.server;
  const owing = await grantOwingSecondFactor(db, sessionId, clock());
  const person = owing ? await findUserById(db, owing.user_id) : undefined;
  if (!person) {
    await audit(request, { type: "second_factor", result: "failure", reason: "auth.grant_invalid" });
    throw new AppError("auth.grant_invalid");
  }
  const { config } = request.server;
  const keys = await takeCredentialAttempt(request, person.username, { type: "second_factor", userId: person.id }, [
    secondFactorThrottleKey(config.sessionSecret, person.id),
  ]);
  if (!(await checkSecondFactorCode(request, person.id, code))) {
    await confirmFailure(db, keys, clock());
    await audit(request, { type: "second_factor", result: "failure", userId: person.id, reason: "auth.code_invalid" });
    throw new AppError("auth.code_invalid");
  }
  await settleSuccess(db, keys);
  await settleSecondFactor(db, sessionId, withOneTimeCode(owing?.amr ?? []));
  const confirmedAt = (await totpState(db, person.id))?.confirmedAt;
  if (remember && confirmedAt) rememberBrowser(request, reply, person.id, confirmedAt);
  const authMethod = owing?.amr.includes("google") ? "GOOGLE" : "PASSWORD";
  await audit(request, { type: "second_factor", result: "success", authMethod, userId: person.id });
}
