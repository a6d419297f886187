import { unlockPerson } from "../../../model/housekeeping/unlock.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { CommandFailedError } from "../usage.ts";

/**
 * Lifts the lock strangers' guesses put on an account (for browsers, devices and client machines that never signed
 * in to it: the sign-in's, Wi-Fi's and LDAP's); the person's own, and Diia and Google, were never held by it.
 */
const unlock: CommandHandler = async (context, args) => {
  const username = required(parseOptions(args, { username: { type: "string" } }), "username");
  const user = await findUserByUsername(context.db, username);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  const { sessionSecret, saml } = context.config;
  const lifted = await unlockPerson(context.db, { sessionSecret, pairwiseSalt: saml.pairwiseSalt }, user);
  await recordAuditEvent(context.db, {
    type: "account_unlocked",
    result: "success",
    userId: user.id,
    reason: lifted ? "operator" : "operator.not_locked",
  });
  context.out.result(
    { username: user.username, unlocked: lifted },
    lifted ? `Unlocked ${user.username}: failed guesses forgotten` : `${user.username} had no failed guesses to forget`,
  );
};

export const userUnlockCommands: Record<string, CommandHandler> = { unlock };
