import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

export interface AuditFilter {
  userId?: string;
  since?: Date;
  type?: string;
  /** Leaves out the accepted events of this type (the account page's activity: Wi-Fi uses are on its Wi-Fi card). */
  exceptSuccessesOf?: string;
  limit: number;
}

/** Newest first, naming the person and the application by id (model/audit-trail adds their names). */
export function listAuditEvents(db: Kysely<Database>, filter: AuditFilter) {
  let query = db
    .selectFrom("audit_events")
    .select([
      "audit_events.id",
      "audit_events.occurred_at",
      "audit_events.event_type",
      "audit_events.result",
      "audit_events.auth_method",
      "audit_events.user_id",
      "audit_events.application_id",
      "audit_events.reason",
      "audit_events.ip",
      "audit_events.user_agent",
    ])
    .orderBy("audit_events.occurred_at", "desc")
    .orderBy("audit_events.id", "desc")
    .limit(filter.limit);
  if (filter.userId) query = query.where("audit_events.user_id", "=", filter.userId);
  if (filter.since) query = query.where("audit_events.occurred_at", ">=", filter.since);
  if (filter.type) query = query.where("audit_events.event_type", "=", filter.type);
  const except = filter.exceptSuccessesOf;
  if (except) {
    query = query.where((eb) =>
      eb.or([eb("audit_events.event_type", "!=", except), eb("audit_events.result", "!=", "success")]),
    );
  }
  return query.execute();
}

/** The person's latest events of these types, newest first (the console's person screen: its history). */
export function latestEventsOf(db: Kysely<Database>, userId: string, types: readonly string[], limit: number) {
  return db
    .selectFrom("audit_events")
    .select(["occurred_at", "event_type", "result", "auth_method", "reason", "ip"])
    .where("user_id", "=", userId)
    .where("event_type", "in", [...types])
    .orderBy("occurred_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
