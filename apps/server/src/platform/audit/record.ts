import type { AuditEventType, AuthMethod } from "@kpi-id/contracts";
import { type Insertable, type Kysely, type QueryCreator, type RawBuilder, sql } from "kysely";
import { commitWithoutWaitingForDisk } from "../db/commit.ts";
import type { AuditEventsTable, Database } from "../db/schema.ts";

// What happened: the list lives in contracts, so the console translates every type; `audit list` filters and prints these names.
export { type AuditEventType, auditEventTypes } from "@kpi-id/contracts";

export interface AuditEvent {
  type: AuditEventType;
  result: "success" | "failure";
  authMethod?: AuthMethod;
  userId?: string | null;
  applicationId?: string | null;
  /** An error code or a short reason word; never a password, secret or tax id. */
  reason?: string;
  ip?: string;
  userAgent?: string;
  occurredAt?: Date;
  /** The operator who acted on the person, for console actions. */
  actorId?: string;
  /** The unit a unit-scoped console action was taken in (issue 79): the unit's audit names it. */
  unitId?: string;
  /** Facts a reader of the row needs (a changed rule's conditions); never a secret. */
  details?: Record<string, unknown>;
}

// A user agent is attacker-controlled text; keep the row bounded.
const userAgentLimit = 512;

/** An audit row as inserted; it always carries its time. */
export type AuditRow = Insertable<AuditEventsTable> & { occurred_at: Date };

export function auditRow(event: AuditEvent): AuditRow {
  return {
    occurred_at: event.occurredAt ?? new Date(),
    event_type: event.type,
    result: event.result,
    auth_method: event.authMethod ?? null,
    user_id: event.userId ?? null,
    application_id: event.applicationId ?? null,
    reason: event.reason ?? null,
    ip: event.ip ?? null,
    user_agent: event.userAgent?.slice(0, userAgentLimit) ?? null,
    actor_id: event.actorId ?? null,
    unit_id: event.unitId ?? null,
    ...(event.details ? { details: JSON.stringify(event.details) } : {}),
  };
}

export async function recordAuditEvent(db: Kysely<Database>, event: AuditEvent): Promise<void> {
  await db.insertInto("audit_events").values(auditRow(event)).execute();
}

/** Many events in one statement (an import's batch of lines). */
export async function recordAuditEvents(db: Kysely<Database>, events: AuditEvent[]): Promise<void> {
  // 11 parameters a row: 1,000 rows a statement stays far below PostgreSQL's 65,535.
  for (let start = 0; start < events.length; start += 1000) {
    await db
      .insertInto("audit_events")
      .values(events.slice(start, start + 1000).map(auditRow))
      .execute();
  }
}

/** An event of a request: where it came from, with what client and when are added from the request. */
export type RequestAuditEvent = Omit<AuditEvent, "ip" | "userAgent" | "occurredAt">;

/**
 * The row as a data-modifying CTE: the statement built on the answer writes the row with its own change, in
 * one round trip and atomically (a sign-in's grant or session and its audit row). The caller counts the event
 * in the metrics once the statement has succeeded. `waitForDisk: false`: db/commit.ts.
 */
export function auditedStatement(
  db: Kysely<Database>,
  row: AuditRow,
  { waitForDisk }: { waitForDisk: boolean },
): QueryCreator<Database> {
  return db.with("audit_row", (query) => {
    const insert = query.insertInto("audit_events").values(row);
    return waitForDisk ? insert : insert.returning(commitWithoutWaitingForDisk);
  });
}

/**
 * Many rows as one INSERT, for a data-modifying CTE of a statement that writes them with its other changes
 * (model/ldap/uses.ts: a group commit of accepted LDAP binds). The rows' columns go as arrays: one statement text
 * whatever the batch's size.
 */
export function auditRowsInsert(rows: AuditRow[]): RawBuilder<unknown> {
  const column = <T>(pick: (row: AuditRow) => T) => rows.map(pick);
  const text = (value: string | null | undefined) => value ?? null;
  return sql`insert into audit_events
      (occurred_at, event_type, result, auth_method, user_id, application_id, reason, ip, user_agent, actor_id, unit_id,
        details)
    select a.occurred_at, a.event_type, a.result, a.auth_method, a.user_id, a.application_id, a.reason, a.ip,
      a.user_agent, a.actor_id, a.unit_id, coalesce(a.details::jsonb, '{}'::jsonb)
    from unnest(${column((r) => r.occurred_at.toISOString())}::timestamptz[], ${column((r) => r.event_type)}::text[],
      ${column((r) => r.result)}::text[], ${column((r) => text(r.auth_method))}::text[],
      ${column((r) => text(r.user_id))}::uuid[], ${column((r) => text(r.application_id))}::uuid[],
      ${column((r) => text(r.reason))}::text[], ${column((r) => text(r.ip))}::text[],
      ${column((r) => text(r.user_agent))}::text[], ${column((r) => text(r.actor_id))}::uuid[],
      ${column((r) => text(r.unit_id))}::uuid[],
      ${column((r) => (typeof r.details === "string" ? r.details : null))}::text[])
      as a(occurred_at, event_type, result, auth_method, user_id, application_id, reason, ip, user_agent, actor_id,
        unit_id, details)`;
}
