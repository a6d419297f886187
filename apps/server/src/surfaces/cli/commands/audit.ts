import { isUuid } from "../../../model/apps/queries.ts";
import { auditEventsNamed } from "../../../model/audit-trail/trail.ts";
import { findUserById, findUserByUsername } from "../../../model/users/queries.ts";
import { auditEventTypes } from "../../../platform/audit/record.ts";
import { parseOptions } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

const relativeUnits: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since` takes a date or time (2026-03-01, 2026-03-01T09:00Z) or an age: 30m, 12h, 7d. */
export function parseSince(value: string, now = new Date()): Date {
  const relative = /^(\d{1,6})([mhd])$/.exec(value.trim());
  if (relative?.[1] && relative[2]) {
    return new Date(now.getTime() - Number(relative[1]) * (relativeUnits[relative[2]] ?? 0));
  }
  const absolute = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(absolute.getTime())) {
    throw new UsageError(`--since: '${value}' is neither a date (2026-03-01T09:00Z) nor an age (30m, 12h, 7d)`);
  }
  return absolute;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return 100;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw new UsageError("--limit: 1 to 100000");
  return limit;
}

async function resolveUserId(context: CliContext, user: string | undefined): Promise<string | undefined> {
  if (user === undefined) return undefined;
  const found = isUuid(user) ? await findUserById(context.db, user) : await findUserByUsername(context.db, user);
  if (!found) throw new CommandFailedError(`no user '${user}'`);
  return found.id;
}

const list: CommandHandler = async (context, args) => {
  const values = parseOptions(args, {
    user: { type: "string" },
    since: { type: "string" },
    type: { type: "string" },
    limit: { type: "string" },
  });
  if (values.type !== undefined && !(auditEventTypes as readonly string[]).includes(values.type)) {
    throw new UsageError(`--type: one of ${auditEventTypes.join(", ")}`);
  }
  const events = await auditEventsNamed(context.db, {
    userId: await resolveUserId(context, values.user),
    since: values.since === undefined ? undefined : parseSince(values.since),
    type: values.type,
    limit: parseLimit(values.limit),
  });
  const rows = events.map((event) => ({
    time: event.occurred_at.toISOString(),
    event: event.event_type,
    result: event.result,
    method: event.auth_method,
    user: event.username ?? event.user_id,
    app: event.application_name ?? event.application_id,
    reason: event.reason,
    ip: event.ip,
  }));
  const json = events.map((event, index) => ({
    ...rows[index],
    userId: event.user_id,
    applicationId: event.application_id,
    userAgent: event.user_agent,
  }));
  context.out.result(json, table(rows));
};

export const auditCommands: Record<string, CommandHandler> = { list };
