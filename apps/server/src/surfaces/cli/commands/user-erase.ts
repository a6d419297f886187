import { type ErasedCounts, enErrorMessages, erasedKinds } from "@kpi-id/contracts";
import { assertErasable } from "../../../model/privacy/erase.ts";
import { erasePersonOnRequest } from "../../../model/privacy/erase-request.ts";
import { endSessions } from "../../../model/sessions/end-sessions.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import { AppError } from "../../../platform/errors.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { CommandFailedError, UsageError } from "../usage.ts";
import { cliWifiDisconnects, disconnectedNote } from "../wifi-disconnects.ts";

const describe = (erased: ErasedCounts) =>
  erasedKinds
    .filter((kind) => erased[kind] > 0)
    .map((kind) => `  ${kind}: ${erased[kind]}`)
    .join("\n");

/**
 * `user erase --username U --confirm U`: an operator's erasure of one person on request (docs/operations.md,
 * "Erasing a person"). The username typed twice is the confirmation: nothing is erased by a slip of the
 * command history. Prints what went, kind by kind; the `person_erased` audit row keeps the same counts.
 */
const erase: CommandHandler = async (context, args) => {
  const values = parseOptions(args, { username: { type: "string" }, confirm: { type: "string" } });
  const username = required(values, "username");
  if (values.confirm?.toLowerCase() !== username.toLowerCase()) {
    throw new UsageError("--confirm must repeat the username: erasure cannot be undone");
  }
  const person = await findUserByUsername(context.db, username);
  if (!person) throw new CommandFailedError(`no user '${username}'`);
  try {
    // Refused before anything ends, then the applications hear of the ended sessions (back-channel logout, CAS
    // single logout, SAML, forward-auth) before the person's row loses its name: as the console's erasure does.
    await assertErasable(context.db, person, undefined);
    const now = new Date();
    const sessionsEnded = await endSessions(
      { db: context.db, now, signOut: await context.signOut() },
      { userId: person.id },
      { reason: "erased" },
    );
    // The service's participants leave Wi-Fi to the command (src/cli-service.ts): the devices' sessions are read
    // before erasure removes them, and disconnected once it is done, their answers printed as `user disable` does.
    const disconnects = cliWifiDisconnects(context);
    const devices = await disconnects.sessionsOf({ userId: person.id });
    const erased = await erasePersonOnRequest(context.db, person, { via: "cli", now, sessionsEnded });
    const answers = await disconnects.send(devices, "erased");
    context.out.result(
      { id: person.id, username: `erased-${person.id}`, erased },
      `Erased ${username} (${person.id})${disconnectedNote(answers)}; what was removed:\n${describe(erased)}`,
    );
  } catch (error) {
    if (error instanceof AppError) throw new CommandFailedError(enErrorMessages[error.code]);
    throw error;
  }
};

export const userEraseCommands: Record<string, CommandHandler> = { erase };
