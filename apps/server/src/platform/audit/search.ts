import type { AuditEventView, AuditFilters } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../db/schema.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dayMs = 24 * 60 * 60 * 1000;

/** A person named by id or username; a name no one holds matches nobody (not everybody). */
async function personIdOf(db: Db, named: string): Promise<string | null> {
  if (uuidPattern.test(named)) return named.toLowerCase();
  const row = await db.selectFrom("users").select("id").where("username", "=", named).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The rows the filters admit, newest first (occurred_at, then id): the order both the screen's
 * pages and the export walk. `after` is the id of the last row already shown: the next rows are
 * those before it in that order, compared in the database so no timestamp loses precision.
 */
export async function auditRows(
  db: Db,
  filters: AuditFilters,
  after: string | undefined,
  limit: number,
  unitIds?: readonly string[],
) {
  const [personId, actorId] = await Promise.all([
    filters.person ? personIdOf(db, filters.person) : undefined,
    filters.actor ? personIdOf(db, filters.actor) : undefined,
  ]);
  if (personId === null || actorId === null) return [];
  let query = db
    .selectFrom("audit_events")
    .leftJoin("users as person", "person.id", "audit_events.user_id")
    .leftJoin("users as actor", "actor.id", "audit_events.actor_id")
    .leftJoin("applications", "applications.id", "audit_events.application_id")
    .leftJoin("units", "units.id", "audit_events.unit_id")
    .select([
      "audit_events.id",
      "audit_events.occurred_at",
      "audit_events.event_type",
      "audit_events.result",
      "audit_events.auth_method",
      "audit_events.reason",
      "audit_events.ip",
      "audit_events.user_id",
      "person.username as person_username",
      "person.full_name as person_name",
      "audit_events.actor_id",
      "actor.username as actor_username",
      "actor.full_name as actor_name",
      "audit_events.application_id",
      "applications.name as application_name",
      "applications.title as application_title",
      "applications.title_en as application_title_en",
      "audit_events.unit_id",
      "units.code as unit_code",
    ])
    .orderBy("audit_events.occurred_at", "desc")
    .orderBy("audit_events.id", "desc")
    .limit(limit);
  if (unitIds) query = query.where(inUnits(unitIds));
  if (personId) query = query.where("audit_events.user_id", "=", personId);
  if (actorId) query = query.where("audit_events.actor_id", "=", actorId);
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

/**
 * A unit's audit (issue 79): the rows of actions taken in one of its units, and the rows whose person and
 * application both lie within them (a row about a person of another unit, or about another unit's application,
 * stays out, so the audit cannot tell a unit admin who exists elsewhere).
 */
function inUnits(unitIds: readonly string[]) {
  const units = sql`${sql.val([...unitIds])}::uuid[]`;
  return sql<boolean>`(audit_events.unit_id = any(${units})
    or ((audit_events.user_id is not null or audit_events.application_id is not null)
      and (audit_events.user_id is null
        or exists (select 1 from student_records r where r.user_id = audit_events.user_id and r.unit_id = any(${units}))
        or exists (select 1 from employee_positions p where p.user_id = audit_events.user_id and p.unit_id = any(${units})))
      and (audit_events.application_id is null or applications.unit_id = any(${units}))))`;
}

export type AuditRow = Awaited<ReturnType<typeof auditRows>>[number];

export function auditEventView(row: AuditRow): AuditEventView {
  return {
    id: String(row.id),
    occurredAt: new Date(row.occurred_at).toISOString(),
    type: row.event_type,
    result: row.result,
    method: row.auth_method,
    person:
      row.user_id && row.person_username
        ? { id: row.user_id, username: row.person_username, fullName: row.person_name ?? "" }
        : null,
    actor:
      row.actor_id && row.actor_username
        ? { id: row.actor_id, username: row.actor_username, fullName: row.actor_name ?? "" }
        : null,
    application:
      row.application_id && row.application_name
        ? {
            id: row.application_id,
            name: row.application_name,
            title: row.application_title ?? "",
            titleEn: row.application_title_en ?? "",
          }
        : null,
    reason: row.reason,
    address: row.ip,
    unit: row.unit_id && row.unit_code ? { id: row.unit_id, code: row.unit_code } : null,
  };
}
