// The audit trail as people read it (issue 76): platform/audit keeps the rows, which name people and applications by
// id; the names come from their owners (model/users, model/apps), one statement each, so no module reads another's
// tables. This area owns no table.
import type { AuditEventView, AuditFilters } from "@kpi-id/contracts";
import { type AuditFilter, listAuditEvents } from "../../platform/audit/queries.ts";
import { auditRows, rowsOfUnits } from "../../platform/audit/search.ts";
import type { Db } from "../../platform/db/schema.ts";
import { applicationInUnits } from "../apps/in-units.ts";
import { applicationNamesByIds, isUuid } from "../apps/queries.ts";
import { findUnitById } from "../people/units.ts";
import { personInUnits } from "../users/person-units.ts";
import { peopleNamesByIds, userIdByExactUsername } from "../users/queries.ts";

const present = (ids: readonly (string | null)[]) => ids.filter((id): id is string => id !== null);

/** A person named by id or username; a name no one holds matches nobody (not everybody): null. */
async function personIdOf(db: Db, named: string): Promise<string | null> {
  if (isUuid(named)) return named.toLowerCase();
  return (await userIdByExactUsername(db, named)) ?? null;
}

/** The codes of the units rows name, one lookup per unit (a page names few). */
async function unitCodes(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const found = await Promise.all([...new Set(ids)].map((id) => findUnitById(db, id)));
  return new Map(found.filter((unit) => unit !== undefined).map((unit) => [unit.id, unit.code]));
}

/**
 * The console's audit log: the events the filters admit, newest first (occurred_at, then id), the page after the
 * event `after`, with the people's and applications' names.
 */
export async function searchAuditTrail(
  db: Db,
  filters: AuditFilters,
  after: string | undefined,
  limit: number,
  /** A unit role's reach (issue 79): only its units' rows; none: every row. */
  unitIds?: readonly string[],
): Promise<AuditEventView[]> {
  const { person, actor, ...rest } = filters;
  const [personId, actorId] = await Promise.all([
    person ? personIdOf(db, person) : undefined,
    actor ? personIdOf(db, actor) : undefined,
  ]);
  if (personId === null || actorId === null) return [];
  const scope = unitIds
    ? rowsOfUnits(
        unitIds,
        (id) => personInUnits(unitIds, id),
        (id) => applicationInUnits(unitIds, id),
      )
    : undefined;
  const rows = await auditRows(db, { ...rest, personId, actorId }, after, limit, scope);
  const [people, applications, units] = await Promise.all([
    peopleNamesByIds(db, present(rows.flatMap((row) => [row.user_id, row.actor_id]))),
    applicationNamesByIds(db, present(rows.map((row) => row.application_id))),
    unitCodes(db, present(rows.map((row) => row.unit_id))),
  ]);
  return rows.map((row) => {
    const named = (id: string | null) => {
      const found = id === null ? undefined : people.get(id);
      return id !== null && found ? { id, username: found.username, fullName: found.fullName } : null;
    };
    const application = row.application_id === null ? undefined : applications.get(row.application_id);
    return {
      id: String(row.id),
      occurredAt: new Date(row.occurred_at).toISOString(),
      type: row.event_type,
      result: row.result,
      method: row.auth_method,
      person: named(row.user_id),
      actor: named(row.actor_id),
      application: row.application_id !== null && application ? { id: row.application_id, ...application } : null,
      reason: row.reason,
      address: row.ip,
      unit: row.unit_id && units.has(row.unit_id) ? { id: row.unit_id, code: units.get(row.unit_id) ?? "" } : null,
    };
  });
}

/** Audit events (a person's, since a day, of a type), newest first, with the person's username and the app's name. */
export async function auditEventsNamed(db: Db, filter: AuditFilter) {
  const rows = await listAuditEvents(db, filter);
  const [people, applications] = await Promise.all([
    peopleNamesByIds(db, present(rows.map((row) => row.user_id))),
    applicationNamesByIds(db, present(rows.map((row) => row.application_id))),
  ]);
  return rows.map((row) => ({
    ...row,
    username: row.user_id === null ? null : (people.get(row.user_id)?.username ?? null),
    application_name: row.application_id === null ? null : (applications.get(row.application_id)?.name ?? null),
  }));
}
