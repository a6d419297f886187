import { type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * The application belongs to one of the units (a unit role's reach, issue 79), as an SQL test of an id the caller's
 * statement names: the unit's audit keeps its rows in one statement (model/audit-trail, platform/audit) without
 * naming this area's table.
 */
export function applicationInUnits(
  unitIds: readonly string[],
  applicationId: RawBuilder<unknown>,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from applications in_units
    where in_units.id = ${applicationId} and in_units.unit_id = any(${sql.val([...unitIds])}::uuid[]))`;
}
