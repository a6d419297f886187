import {
  findUserByGoogleSubject,
  googleSubjectsOf,
  linkGoogleSubject,
  unlinkGoogle,
} from "../../../model/google/identities.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

// Google's `sub`: a case-sensitive ASCII string of at most 255 characters, never reassigned.
const subjectPattern = /^[\x21-\x7e]{1,255}$/;

async function requirePerson(context: CliContext, username: string) {
  const user = await findUserByUsername(context.db, username);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  return user;
}

/** Links a Google account (by its subject) to a person, so it signs them in whatever its e-mail. */
const linkGoogle: CommandHandler = async (context, args) => {
  const values = parseOptions(args, { username: { type: "string" }, subject: { type: "string" } });
  const user = await requirePerson(context, required(values, "username"));
  const subject = required(values, "subject");
  if (!subjectPattern.test(subject)) throw new UsageError("--subject must be 1 to 255 visible ASCII characters");
  const holder = await findUserByGoogleSubject(context.db, subject);
  if (holder && holder.id !== user.id) {
    throw new CommandFailedError(`that Google account is linked to '${holder.username}'; unlink it there first`);
  }
  await linkGoogleSubject(context.db, user.id, subject);
  context.out.result(
    { username: user.username, googleSubjects: await googleSubjectsOf(context.db, user.id) },
    `${user.username} can now sign in with Google account ${subject}`,
  );
};

/** Removes every Google link of a person; e-mail matching may link them again at their next Google sign-in. */
const unlinkGoogleCommand: CommandHandler = async (context, args) => {
  const user = await requirePerson(context, required(parseOptions(args, { username: { type: "string" } }), "username"));
  const removed = await unlinkGoogle(context.db, user.id);
  context.out.result(
    { username: user.username, unlinked: removed },
    removed === 0
      ? `${user.username} had no linked Google account`
      : `Unlinked ${removed} Google account${removed === 1 ? "" : "s"} from ${user.username}`,
  );
};

export const userGoogleCommands: Record<string, CommandHandler> = {
  "link-google": linkGoogle,
  "unlink-google": unlinkGoogleCommand,
};
