import { findUserByUsername } from "../../../model/users/queries.ts";
import {
  listNetworkPasswords,
  revokeAllNetworkPasswords,
  revokeNetworkPassword,
} from "../../../model/wifi/passwords.ts";
import { isWifiOff, turnWifiOff, turnWifiOn } from "../../../model/wifi/people.ts";
import { wifiFigures } from "../../../model/wifi/stats.ts";
import { wifiPasswordView } from "../../../model/wifi/view.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";
import { cliWifiDisconnects, disconnectedCount, disconnectedNote } from "../wifi-disconnects.ts";

async function personNamed(context: CliContext, username: string) {
  const user = await findUserByUsername(context.db, username);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  return user;
}

/** `wifi list --username U`: U's devices (never a password) and whether U's Wi-Fi is off. */
const list: CommandHandler = async (context, args) => {
  const user = await personNamed(context, required(parseOptions(args, { username: { type: "string" } }), "username"));
  const passwords = (await listNetworkPasswords(context.db, user.id)).map((each) =>
    wifiPasswordView(each, user.username, context.config.wifi.realm),
  );
  const off = await isWifiOff(context.db, user.id);
  const rows = passwords.map((each) => ({
    id: each.id,
    name: each.name,
    identity: each.identity,
    created: each.createdAt,
    lastUsed: each.lastUsedAt ?? "never",
    accessPoint: each.uses[0]?.accessPoint ?? "",
  }));
  context.out.result(
    { username: user.username, wifiOff: off, passwords },
    `${off ? "Wi-Fi is off\n" : ""}${table(rows)}`,
  );
};

/** `wifi revoke --username U (--id ID | --all)`. */
const revoke: CommandHandler = async (context, args) => {
  const options = parseOptions(args, {
    username: { type: "string" },
    id: { type: "string" },
    all: { type: "boolean" },
  });
  const user = await personNamed(context, required(options, "username"));
  const disconnects = cliWifiDisconnects(context);
  const passwordId = options.all ? undefined : required(options, "id");
  // Read before the revocation deletes them; disconnected once it is done.
  const connected = await disconnects.sessionsOf({ userId: user.id, passwordId });
  let count = 1;
  if (passwordId === undefined) count = await revokeAllNetworkPasswords(context.db, user.id);
  else await revokeNetworkPassword(context.db, user.id, passwordId);
  await recordAuditEvent(context.db, {
    type: "wifi_password_revoked",
    result: "success",
    userId: user.id,
    reason: "operator",
  });
  const answers = await disconnects.send(connected, "password_revoked");
  context.out.result(
    { username: user.username, revoked: count, ...disconnectedCount(answers) },
    `Revoked ${count} Wi-Fi password(s) of ${user.username}${disconnectedNote(answers)}`,
  );
};

/** `wifi off --username U` / `wifi on --username U`: no password of U works while off. */
const off: CommandHandler = async (context, args) => {
  const user = await personNamed(context, required(parseOptions(args, { username: { type: "string" } }), "username"));
  const disconnects = cliWifiDisconnects(context);
  const connected = await disconnects.sessionsOf({ userId: user.id });
  await turnWifiOff(context.db, user.id, undefined, new Date());
  await recordAuditEvent(context.db, {
    type: "wifi_turned_off",
    result: "success",
    userId: user.id,
    reason: "operator",
  });
  const answers = await disconnects.send(connected, "wifi_off");
  context.out.result(
    { username: user.username, wifiOff: true, ...disconnectedCount(answers) },
    `Wi-Fi is off for ${user.username}${disconnectedNote(answers)}`,
  );
};

const on: CommandHandler = async (context, args) => {
  const user = await personNamed(context, required(parseOptions(args, { username: { type: "string" } }), "username"));
  await turnWifiOn(context.db, user.id);
  await recordAuditEvent(context.db, {
    type: "wifi_turned_on",
    result: "success",
    userId: user.id,
    reason: "operator",
  });
  context.out.result({ username: user.username, wifiOff: false }, `Wi-Fi is on for ${user.username}`);
};

/** `wifi stats`: sign-ins per day and refusals by reason, the last 14 days. */
const stats: CommandHandler = async (context) => {
  const figures = await wifiFigures(context.db, new Date());
  context.out.result(figures, `${table(figures.days)}\n\nRefusals by reason\n${table(figures.failures)}`);
};

export const wifiCommands: Record<string, CommandHandler> = { list, revoke, off, on, stats };
