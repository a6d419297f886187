import { createHmac } from "node:crypto";
import type { EmailRecoveryRequest, Language } from "@kpi-id/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { issueResetToken } from "../../model/recovery/tokens.ts";
import { findActiveUsersByEmail } from "../../model/users/method-lookups.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { requestLanguage } from "../../platform/http/language.ts";
import { requestThrottleAddress } from "../../platform/http/throttle-address.ts";
import { sendInBackground } from "../../platform/mail/mailer.ts";
import { renderMessage } from "../../platform/mail/messages.ts";
import { resetLinkNotice } from "../../platform/mail/notices.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import { throttlePolicy } from "../../platform/throttle/policy.ts";
import { type ThrottleKey, takeAttempt } from "../../platform/throttle/throttle.ts";

/** The one active person whose verified address this is; none when nobody or more than one holds it. */
async function holderOfVerifiedAddress(db: Db, email: string): Promise<User | undefined> {
  const holders = await findActiveUsersByEmail(db, email.trim());
  const [holder] = holders;
  return holders.length === 1 && holder && verifiedAddressOf(holder) ? holder : undefined;
}

const keyed = (secret: string, value: string) =>
  createHmac("sha256", secret).update(value.trim().toLowerCase(), "utf8").digest("base64url");

/** The link the message carries: the token in the fragment, so it reaches no server log and no Referer. */
export function resetLinkUrl(publicUrl: string, language: Language, token: string): string {
  return `${publicUrl}/${language}/reset-password#token=${token}`;
}

/**
 * "Forgot password" by e-mail. Always the same answer, known address or not; a link goes out only
 * to an active person's verified address. Throttled per address asking (429) and per typed address
 * (429, whether or not anyone holds it), and per account (quietly: nothing more is sent), so nobody
 * can bomb a mailbox through KPI ID or learn whether an address is known.
 */
export async function requestResetByEmail(request: FastifyRequest, { email, language: asked }: EmailRecoveryRequest) {
  const { db, config, clock, mailer } = request.server;
  if (!mailer.enabled) throw new AppError("recovery.not_available");
  const typed = keyed(config.sessionSecret, email);
  const asking: ThrottleKey[] = [
    { key: `recovery-address:${typed}`, rule: throttlePolicy.recoveryMail },
    { key: `recovery-ip:${requestThrottleAddress(request)}`, rule: throttlePolicy.recoveryIp },
  ];
  const attempt = await takeAttempt(db, asking, clock());
  if (!attempt.allowed) throw new AppError("request.rate_limited", { retryAfterSeconds: attempt.retryAfterSeconds });

  const person = await holderOfVerifiedAddress(db, email);
  // Unknown addresses take the same steps up to the token, on a key nobody else shares.
  const account = { key: `recovery-account:${person?.id ?? typed}`, rule: throttlePolicy.recoveryMail };
  const perAccount = await takeAttempt(db, [account], clock());
  const to = person ? verifiedAddressOf(person) : undefined;
  if (!person || !to) {
    await audit(request, { type: "password_reset_request", result: "failure", reason: "recovery.no_verified_address" });
    return;
  }
  if (!perAccount.allowed) {
    await audit(request, {
      type: "password_reset_request",
      result: "failure",
      userId: person.id,
      reason: "recovery.throttled",
    });
    return;
  }
  await audit(request, { type: "password_reset_request", result: "success", userId: person.id, reason: "email" });
  // The token and the message are made after the answer, so a known address takes no longer than an unknown one.
  const language = requestLanguage(request, asked);
  issueAndSendLink(request.server, person.id, to, language).catch((error: unknown) => {
    request.server.log.warn({ err: error }, "password reset link could not be issued");
  });
}

/** A reset link to `to`, as "Forgot password?" sends it (also the console's "start a recovery e-mail"). */
export async function issueAndSendLink(app: FastifyInstance, userId: string, to: string, language: Language) {
  const { db, config, clock } = app;
  const token = await issueResetToken(db, userId, "email", config.passwordResetTtlSeconds, clock());
  const minutes = Math.round(config.passwordResetTtlSeconds / 60);
  const content = resetLinkNotice(language, resetLinkUrl(config.publicUrl, language, token), minutes);
  sendInBackground(app, { to, ...renderMessage(content, language) });
}
