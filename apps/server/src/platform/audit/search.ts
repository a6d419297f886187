import type { AuditFilters } from "@kpi-id/contracts";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../db/schema.ts";

const dayMs = 24 * 60 * 60 * 1000;

/** The console's filters with the person and the operator already named by id (model/audit-trail finds them). */
export type AuditRowFilters = Omit<AuditFilters, "person" | "actor"> & { personId?: string; actorId?: string };

/** An SQL test of a person's or an application's id that a row names, lent by the table's owner. */
type InUnits = (id: RawBuilder<unknown>) => RawBuilder<SqlBool>;

/**
 * A unit's audit (issue 79): the rows of actions taken in one of its units, and the rows whose person and application
 * both lie within them (a row about a person of another unit, or about another unit's application, stays out, so the
 * audit cannot tell a unit admin who exists elsewhere). The owners of people and applications lend the tests, so
 * the page stays one statement and this module names only its own table.
 */
export function rowsOfUnits(
  unitIds: readonly string[],
  personIn: InUnits,
  applicationIn: InUnits,
): RawBuilder<boolean> {
  return sql<boolean>`(audit_events.unit_id = any(${sql.val([...unitIds])}::uuid[])
    or ((audit_events.user_id is not null or audit_events.application_id is not null)
      and (audit_events.user_id is null or ${personIn(sql.ref("audit_events.user_id"))})
      and (audit_events.application_id is null or ${applicationIn(sql.ref("audit_events.application_id"))})))`;
}

/**
 * The rows the filters admit, newest first (occurred_at, then id): the order both the screen's
 * pages and the export walk. `after` is the id of the last row already shown: the next rows are
 * those before it in that order, compared in the database so no timestamp loses precision.
 * The rows name people and applications by id: the model adds their names.
 */
export async function auditRows(
  db: Db,
  filters: AuditRowFilters,
  after: string | undefined,
  limit: number,
  /** Only the rows a unit's console role reaches (rowsOfUnits); none: every row. */
  scope?: RawBuilder<boolean>,
) {
  let query = db
    .selectFrom("audit_events")
    .select([
      "audit_events.id",
      "audit_events.occurred_at",
      "audit_events.event_type",
      "audit_events.result",
      "audit_events.auth_method",
      "audit_events.reason",
      "audit_events.ip",
      "audit_events.user_id",
      "audit_events.actor_id",
      "audit_events.application_id",
      "audit_events.unit_id",
    ])
    .orderBy("audit_events.occurred_at", "desc")
    .orderBy("audit_events.id", "desc")
    .limit(limit);
  if (scope) query = query.where(scope);
  if (filters.personId) query = query.where("audit_events.user_id", "=", filters.personId);
  if (filters.actorId) query = query.where("audit_events.actor_id", "=", filters.actorId);
  if (filters.type) query = query.where("audit_events.event_type", "=", filters.type);
  if (filters.result) query = query.where("audit_events.result", "=", filters.result);
  if (filters.app) query = query.where("audit_events.application_id", "=", filters.app);
  if (filters.ip) query = query.where("audit_events.ip", "=", filters.ip);
  if (filters.from) query = query.where("audit_events.occurred_at", ">=", new Date(`${filters.from}T00:00:00Z`));
  if (filters.to) {
    query = query.where("audit_events.occurred_at", "<", new Date(Date.parse(`${filters.to}T00:00:00Z`) + dayMs));
  }
  if (after) {
    query = query.where(
      sql<boolean>`(audit_events.occurred_at, audit_events.id) < (select c.occurred_at, c.id from audit_events c where c.id = ${after})`,
    );
  }
  return query.execute();
}

export type AuditRow = Awaited<ReturnType<typeof auditRows>>[number];
