import { findUnitByCode } from "../../../model/people/units.ts";
import {
  grantRole,
  isOperatorRole,
  listOperators,
  operatorRoles,
  revokeRole,
} from "../../../model/users/operator-roles.ts";
import { findUserByUsername } from "../../../model/users/queries.ts";
import {
  grantUnitRole,
  isUnitRole,
  listUnitRoleHolders,
  revokeUnitRole,
  unitRoles,
} from "../../../model/users/unit-roles.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

function roleCommand(action: "grant" | "revoke"): CommandHandler {
  return async (context, args) => {
    const values = parseOptions(args, {
      username: { type: "string" },
      role: { type: "string" },
      unit: { type: "string" },
    });
    const username = required(values, "username");
    const role = required(values, "role");
    if (isUnitRole(role)) return unitRoleCommand(action)(context, values);
    if (!isOperatorRole(role)) {
      throw new UsageError(`--role: one of ${[...operatorRoles, ...unitRoles].join(", ")}`);
    }
    if (values.unit !== undefined) throw new UsageError("--unit: only with unit_admin or unit_helpdesk");
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

type RoleOptions = Record<string, string | boolean | undefined>;

/** A role in a unit (issue 79): `--unit CODE` names it; the role reaches it and every unit below it. */
function unitRoleCommand(action: "grant" | "revoke") {
  return async (context: Parameters<CommandHandler>[0], values: RoleOptions) => {
    const username = String(values.username);
    const role = String(values.role);
    if (!isUnitRole(role)) throw new UsageError(`--role: one of ${unitRoles.join(", ")}`);
    if (typeof values.unit !== "string") throw new UsageError(`--unit: the unit's code, for ${role}`);
    const unit = await findUnitByCode(context.db, values.unit);
    if (!unit) throw new CommandFailedError(`no unit '${values.unit}'`);
    const user = await findUserByUsername(context.db, username);
    if (!user) throw new CommandFailedError(`no user '${username}'`);
    const changed =
      action === "grant"
        ? await grantUnitRole(context.db, user.id, unit.id, role)
        : await revokeUnitRole(context.db, user.id, unit.id, role);
    await recordAuditEvent(context.db, {
      type: action === "grant" ? "role_granted" : "role_revoked",
      result: "success",
      userId: user.id,
      unitId: unit.id,
      reason: changed ? `cli.${role}` : `cli.${role}.unchanged`,
    });
    const held = action === "grant" ? (changed ? "is now" : "was already") : changed ? "is no longer" : "was not";
    context.out.result(
      { username: user.username, role, unit: unit.code, held: action === "grant", changed },
      `${user.username} ${held} ${role} of ${unit.code}`,
    );
  };
}

const list: CommandHandler = async (context, args) => {
  parseOptions(args, {});
  const [operators, unitHolders] = await Promise.all([listOperators(context.db), listUnitRoleHolders(context.db)]);
  const rows = [
    ...operators.map((o) => ({ username: o.username, role: o.role, unit: "", granted: o.grantedAt.toISOString() })),
    ...unitHolders.map((h) => ({
      username: h.username,
      role: h.role,
      unit: h.unitCode,
      granted: h.grantedAt.toISOString(),
    })),
  ];
  // One list in --json as before; a unit role's row names its unit.
  const held = [...operators, ...unitHolders.map(({ unitCode, ...holder }) => ({ ...holder, unit: unitCode }))];
  context.out.result(held, table(rows));
};

export const roleCommands: Record<string, CommandHandler> = {
  grant: roleCommand("grant"),
  revoke: roleCommand("revoke"),
  list,
};
