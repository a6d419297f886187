import type { RecoveryCodes, SecondFactorStatus, TotpConfirmResponse, TotpSetup } from "@kpi-id/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { audit } from "../audit/record.ts";
import { AppError } from "../errors.ts";
import { requestLanguage } from "../http/language.ts";
import { notifySignInMethodChanged } from "../mail/notify.ts";
import { destinationOf, hasPendingContinueTo, takeContinueTo } from "../sessions/continue-to.ts";
import { requireRecentSignIn } from "../sessions/recent-sign-in.ts";
import { type LoadedSession, raiseSessionStrength } from "../sessions/store.ts";
import { raisedAmr, sessionAmr } from "../sessions/strength.ts";
import { issueRecoveryCodes, recoveryCodesLeft, removeRecoveryCodes } from "./recovery-codes.ts";
import { checkTotpCode, removeTotp, startTotpSetup, totpState } from "./totp.ts";

export async function secondFactorStatus(request: FastifyRequest, session: LoadedSession): Promise<SecondFactorStatus> {
  const { db } = request.server;
  const totp = await totpState(db, session.userId);
  return {
    totp: Boolean(totp?.confirmedAt),
    recoveryCodesLeft: await recoveryCodesLeft(db, session.userId),
    required: session.user.require_mfa,
  };
}

export async function setUpTotp(request: FastifyRequest, session: LoadedSession): Promise<TotpSetup> {
  requireRecentSignIn(request, session);
  const { db, config, clock } = request.server;
  if ((await totpState(db, session.userId))?.confirmedAt) throw new AppError("mfa.already_set_up");
  return startTotpSetup(db, config.sessionSecret, { id: session.userId, username: session.user.username }, clock());
}

/**
 * The first code confirms the authenticator. It is also a second factor proven now, on top of the recent
 * sign-in that set it up: the session counts as multi-factor from here, so a person led here by an
 * application that requires it goes on there (`next`, the sign-in's waiting continuation) without
 * signing in a second time.
 */
export async function confirmTotp(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  code: string,
): Promise<TotpConfirmResponse> {
  const { db, config, clock } = request.server;
  const state = await totpState(db, session.userId);
  if (!state || state.confirmedAt) throw new AppError("mfa.not_set_up");
  if (!(await checkTotpCode(db, config.sessionSecret, session.userId, code.trim(), clock(), true))) {
    throw new AppError("auth.code_invalid");
  }
  const recoveryCodes = await issueRecoveryCodes(db, session.userId, clock());
  await audit(request, {
    type: "second_factor_changed",
    result: "success",
    userId: session.userId,
    reason: "totp_added",
  });
  notifySignInMethodChanged(request, session.user, "AUTHENTICATOR", "added");
  await raiseSessionStrength(db, session.id, raisedAmr(sessionAmr(session), ["otp"]), clock());
  if (!hasPendingContinueTo(request)) return { recoveryCodes };
  return { recoveryCodes, next: destinationOf(takeContinueTo(request, reply), requestLanguage(request)) };
}

export async function turnOffTotp(request: FastifyRequest, session: LoadedSession): Promise<void> {
  requireRecentSignIn(request, session);
  const { db } = request.server;
  if (!(await removeTotp(db, session.userId))) throw new AppError("mfa.not_set_up");
  await removeRecoveryCodes(db, session.userId);
  await audit(request, {
    type: "second_factor_changed",
    result: "success",
    userId: session.userId,
    reason: "totp_removed",
  });
  notifySignInMethodChanged(request, session.user, "AUTHENTICATOR", "removed");
}

export async function regenerateRecoveryCodes(request: FastifyRequest, session: LoadedSession): Promise<RecoveryCodes> {
  requireRecentSignIn(request, session);
  const { db, clock } = request.server;
  if (!(await totpState(db, session.userId))?.confirmedAt) throw new AppError("mfa.not_set_up");
  const recoveryCodes = await issueRecoveryCodes(db, session.userId, clock());
  await audit(request, {
    type: "second_factor_changed",
    result: "success",
    userId: session.userId,
    reason: "recovery_codes_regenerated",
  });
  return { recoveryCodes };
}
