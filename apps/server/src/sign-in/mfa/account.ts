import type { RecoveryCodes, SecondFactorStatus, TotpConfirmResponse, TotpSetup } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { issueRecoveryCodes, recoveryCodesLeft, removeRecoveryCodes } from "../../model/mfa/recovery-codes.ts";
import { checkTotpCode, removeTotp, startTotpSetup, totpState } from "../../model/mfa/totp.ts";
import { stepUpSignInPath } from "../../model/sessions/continue-to.ts";
import { requireRecentSignInWithSecondFactor } from "../../model/sessions/recent-sign-in.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { notifySignInMethodChanged } from "../../platform/http/notify.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";
import { hasPendingContinueTo } from "../session/continue-cookie.ts";

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
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
  const { db, config, clock } = request.server;
  if ((await totpState(db, session.userId))?.confirmedAt) throw new AppError("mfa.already_set_up");
  return startTotpSetup(db, config.sessionSecret, { id: session.userId, username: session.user.username }, clock());
}

/**
 * The first code confirms the authenticator. The session stays as strong as its sign-in was: a factor set
 * up inside a session proves nothing about who signed in (sessions/strength.ts). A person led here by a sign-in
 * that needs a second factor (an application's, or the operator's requirement) is sent (`next`) to sign in with
 * the new code; that sign-in goes on to what was waiting.
 */
export async function confirmTotp(
  request: FastifyRequest,
  session: LoadedSession,
  code: string,
): Promise<TotpConfirmResponse> {
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
  const { db, config, clock } = request.server;
  const state = await totpState(db, session.userId);
  if (!state || state.confirmedAt) throw new AppError("mfa.not_set_up");
  if (!(await checkTotpCode(db, config.sessionSecrets, session.userId, code.trim(), clock(), true))) {
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
  // The waiting continuation stays in its cookie: the sign-in with the new factor takes it (complete-sign-in.ts).
  if (!hasPendingContinueTo(request)) return { recoveryCodes };
  return { recoveryCodes, next: stepUpSignInPath(requestLanguage(request)) };
}

export async function turnOffTotp(request: FastifyRequest, session: LoadedSession): Promise<void> {
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
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
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
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
