// The audit rows a statement writes beside the change they record (one round trip, one commit), lent by the audit
// trail's owner to the model modules that build such statements: they never name audit_events themselves.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { AuditRow } from "./record.ts";

/** The rows' insert, for a data-modifying CTE of the caller's statement. */
export function auditRowsInsert(db: Kysely<Database>, rows: readonly AuditRow[]) {
  return db.insertInto("audit_events").values([...rows]);
}

/** What each row says besides whose it is and by which method: the statement's earlier part gives those. */
export interface AuditRowPerChange {
  occurredAt: unknown;
  eventType: unknown;
  result: unknown;
  applicationId: unknown;
  ip: unknown;
  userAgent: unknown;
}

/**
 * An audit row for each row `source` answers (a data-modifying CTE of the same statement returning `user_id` and
 * `auth_method`), as the body of a `with`; none when it answers none. The values are parameters (`${…}`), so a precompiled
 * statement (db/precompiled.ts) may pass its stand-ins.
 */
export function auditRowPerChange(source: string, row: AuditRowPerChange): RawBuilder<Record<string, unknown>> {
  // In parentheses: Kysely's `with` writes a raw body as it is, where a builder's gets them.
  return sql`(insert into audit_events (occurred_at, event_type, result, application_id, ip, user_agent, user_id, auth_method)
    select ${row.occurredAt}, ${row.eventType}, ${row.result}, ${row.applicationId}, ${row.ip}, ${row.userAgent},
      ${sql.ref(`${source}.user_id`)}, ${sql.ref(`${source}.auth_method`)}
    from ${sql.table(source)})`;
}
