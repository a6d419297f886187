import {
  grantRole,
  isOperatorRole,
  listOperators,
  operatorRoles,
  revokeRole,
} from "../../../model/users/operator-roles.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

function roleCommand(action: "grant" | "revoke"): CommandHandler {
  return async (context, args) => {
    const values = parseOptions(args, { username: { type: "string" }, role: { type: "string" } });
    const username = required(values, "username");
    const role = required(values, "role");
    if (!isOperatorRole(role)) throw new UsageError(`--role: one of ${operatorRoles.join(", ")}`);
    const user = await findUserByUsername(context.db, username);
    if (!user) throw new CommandFailedError(`no user '${username}'`);
    const changed =
      action === "grant" ? await grantRole(context.db, user.id, role) : await revokeRole(context.db, user.id, role);
    await recordAuditEvent(context.db, {
      type: action === "grant" ? "role_granted" : "role_revoked",
      result: "success",
      userId: user.id,
      reason: changed ? `cli.${role}` : `cli.${role}.unchanged`,
    });
    const text =
      action === "grant"
        ? changed
          ? `${user.username} is now ${role}`
          : `${user.username} was ${role} already`
        : changed
          ? `${user.username} is no longer ${role}`
          : `${user.username} was not ${role}`;
    context.out.result({ username: user.username, role, held: action === "grant", changed }, text);
  };
}

const list: CommandHandler = async (context, args) => {
  parseOptions(args, {});
  const operators = await listOperators(context.db);
  context.out.result(
    operators,
    table(operators.map((o) => ({ username: o.username, role: o.role, granted: o.grantedAt.toISOString() }))),
  );
};

export const roleCommands: Record<string, CommandHandler> = {
  grant: roleCommand("grant"),
  revoke: roleCommand("revoke"),
  list,
};
