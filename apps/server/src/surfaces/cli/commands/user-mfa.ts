import { parseArgs } from "node:util";
import { defaultLanguage } from "@kpi-id/contracts";
import { endSessions } from "../../../model/sessions/end-sessions.ts";
import { requireSecondFactor } from "../../../model/users/method-lookups.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { createMailer } from "../../../platform/mail/mailer.ts";
import { renderMessage } from "../../../platform/mail/messages.ts";
import { verifiedAddressOf } from "../../../platform/mail/verified-address.ts";
import { resetSecondFactor } from "../../../sign-in/mfa/reset.ts";
import { secondFactorResetNotice } from "../../../sign-in/mfa/reset-notice.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

function parse(args: string[], extra: Record<string, { type: "boolean" }> = {}) {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: { username: { type: "string" }, json: { type: "boolean" }, ...extra },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (typeof values.username !== "string" || !values.username) throw new UsageError("--username is required");
  return { username: values.username, off: values.off === true };
}

async function person(context: CliContext, username: string) {
  const user = await findUserByUsername(context.db, username);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  return user;
}

/** `user require-mfa --username U [--off]`: the person must give a second factor after their password. */
const requireMfa: CommandHandler = async (context, args) => {
  const values = parse(args, { off: { type: "boolean" } });
  const user = await person(context, values.username);
  const required = !values.off;
  await requireSecondFactor(context.db, user.id, required);
  await recordAuditEvent(context.db, {
    type: "second_factor_changed",
    result: "success",
    userId: user.id,
    reason: required ? "operator.require_mfa" : "operator.require_mfa_off",
  });
  context.out.result(
    { username: user.username, requireMfa: required },
    required
      ? `${user.username} must now use a second factor (led to set one up after their password)`
      : `${user.username} no longer needs a second factor`,
  );
};

/**
 * `user reset-mfa --username U`: for a person who lost their phone and recovery codes; what goes and
 * why the sessions end too is in mfa/reset.ts (the console's person screen does the same). The person
 * is told by mail at their verified address, in the language of their last sign-in; all audited.
 */
const resetMfa: CommandHandler = async (context, args) => {
  const values = parse(args);
  const user = await person(context, values.username);
  const signOut = await context.signOut();
  const { hadAuthenticator, passkeysRemoved, sessionsEnded } = await resetSecondFactor(
    context.db,
    user.id,
    (event) => recordAuditEvent(context.db, event),
    (userId) => endSessions({ db: context.db, now: new Date(), signOut }, { userId }, { reason: "operator.reset_mfa" }),
  );
  const to = verifiedAddressOf(user);
  const mailer = createMailer(context.config.mail);
  let notified = false;
  if (to && mailer.enabled) {
    const language = user.language ?? defaultLanguage;
    await mailer.send({
      to,
      ...renderMessage(secondFactorResetNotice(language, context.config.support.email), language),
    });
    notified = true;
  }
  mailer.close();
  context.out.result(
    { username: user.username, reset: hadAuthenticator, passkeysRemoved, sessionsEnded, notified },
    `${user.username}: second factor ${hadAuthenticator ? "reset" : "was not set up; recovery codes cleared"}` +
      `, ${passkeysRemoved} passkey(s) removed, ${sessionsEnded} session(s) ended` +
      (notified ? ", told by mail" : ", no verified address or no mail: tell them yourself"),
  );
};

export const userMfaCommands: Record<string, CommandHandler> = { "require-mfa": requireMfa, "reset-mfa": resetMfa };
