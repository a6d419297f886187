import { createScimToken, listScimTokens, revokeScimToken, ScimTokenError } from "../../../model/scim/tokens.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";

/** `scim token create|list|revoke`: one bearer token per source system (docs/scim.md). */

const create: CommandHandler = async ({ db, out }, args) => {
  const name = required(parseOptions(args, { name: { type: "string" } }), "name");
  try {
    const { token, row } = await createScimToken(db, name);
    await recordAuditEvent(db, {
      type: "scim_change",
      result: "success",
      reason: "scim.token_created",
      details: { actor: "cli", token: row.name },
    });
    // Shown this once: only its hash is kept.
    out.result(
      { name: row.name, id: row.id, token },
      `SCIM token for ${row.name} (shown once, keep it in the source system's secret store):\n${token}`,
    );
  } catch (error) {
    if (error instanceof ScimTokenError) throw new CommandFailedError(error.message);
    throw error;
  }
};

const list: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const rows = (await listScimTokens(db)).map((row) => ({
    name: row.name,
    created: row.created_at.toISOString(),
    lastUsed: row.last_used_at?.toISOString() ?? "",
    revoked: row.revoked_at?.toISOString() ?? "",
  }));
  out.result(rows, table(rows));
};

const revoke: CommandHandler = async ({ db, out }, args) => {
  const name = required(parseOptions(args, { name: { type: "string" } }), "name");
  const row = await revokeScimToken(db, name, new Date());
  if (!row) throw new CommandFailedError(`no live SCIM token named '${name}'`);
  await recordAuditEvent(db, {
    type: "scim_change",
    result: "success",
    reason: "scim.token_revoked",
    details: { actor: "cli", token: row.name },
  });
  out.result({ name: row.name, revoked: true }, `Revoked the SCIM token of ${row.name}`);
};

export const scimCommands: Record<string, CommandHandler> = {
  "token create": create,
  "token list": list,
  "token revoke": revoke,
};
