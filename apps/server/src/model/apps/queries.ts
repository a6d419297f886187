import type { ApplicationLifecycle } from "@kpi-id/contracts";
import { type SelectQueryBuilder, sql, type Updateable } from "kysely";
import type { ApplicationRow, ApplicationsTable, Database, Db, NewApplication } from "../../platform/db/schema.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

export function findApplicationById(db: Db, id: string): Promise<ApplicationRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom("applications").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Operators name applications by id or by name. */
export function findApplicationByIdOrName(db: Db, idOrName: string): Promise<ApplicationRow | undefined> {
  if (isUuid(idOrName)) return findApplicationById(db, idOrName);
  return db
    .selectFrom("applications")
    .selectAll()
    .where(sql<string>`lower(name)`, "=", idOrName.toLowerCase())
    .executeTakeFirst();
}

export function insertApplication(db: Db, application: NewApplication): Promise<ApplicationRow> {
  return db.insertInto("applications").values(application).returningAll().executeTakeFirstOrThrow();
}

export function listApplications(db: Db): Promise<ApplicationRow[]> {
  return db.selectFrom("applications").selectAll().orderBy(sql`lower(name)`).execute();
}

/** Every application by its title, case aside: the console's list; with `unitIds`, those units' only (issue 79). */
export function listApplicationsByTitle(db: Db, unitIds?: readonly string[]): Promise<ApplicationRow[]> {
  if (unitIds?.length === 0) return Promise.resolve([]);
  let query = db.selectFrom("applications").selectAll();
  if (unitIds) query = query.where("unit_id", "in", [...unitIds]);
  return query.orderBy(sql`lower(title)`).execute();
}

/** Gives the application to a unit (null: to central IT). */
export async function setApplicationUnit(db: Db, id: string, unitId: string | null): Promise<void> {
  await db.updateTable("applications").set({ unit_id: unitId }).where("id", "=", id).execute();
}

/** A review's decision moves the application to its next stage; answers the row as it now is. */
export function setApplicationLifecycle(
  db: Db,
  id: string,
  lifecycle: ApplicationLifecycle,
  now: Date,
): Promise<ApplicationRow> {
  return db
    .updateTable("applications")
    .set({ lifecycle, updated_at: now })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The owner turns the device authorization grant on or off, with OpenID Connect on while anything uses it (the
 * caller ends the device codes and tokens); answers the row as it now is.
 */
export function setApplicationDeviceFlow(
  db: Db,
  id: string,
  flow: { deviceFlow: boolean; oidcEnabled: boolean },
  now: Date,
): Promise<ApplicationRow> {
  return db
    .updateTable("applications")
    .set({ oidc_device_flow: flow.deviceFlow, oidc_enabled: flow.oidcEnabled, updated_at: now })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The person headers the application receives as a site behind nginx, or null: an ordinary application. */
export async function setApplicationForwardAuthHeaders(
  db: Db,
  id: string,
  headers: readonly string[] | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable("applications")
    .set({ forward_auth_headers: headers === null ? null : [...headers], updated_at: now })
    .where("id", "=", id)
    .execute();
}

export async function setApplicationSecretHash(db: Db, id: string, secretHash: string): Promise<void> {
  await db
    .updateTable("applications")
    .set({ secret_hash: secretHash, updated_at: new Date() })
    .where("id", "=", id)
    .execute();
}

/**
 * Writes these fields of the application, only while its stage is one of `stages` when given (an owner's edit in
 * the stage it was checked for; a review asked from testing or after a rejection). The row as it now is, or
 * undefined when there is no such application in such a stage.
 */
export function updateApplicationIf(
  db: Db,
  id: string,
  changes: Updateable<ApplicationsTable>,
  stages?: readonly ApplicationLifecycle[],
): Promise<ApplicationRow | undefined> {
  let update = db.updateTable("applications").set(changes).where("id", "=", id);
  if (stages) update = update.where("lifecycle", "in", [...stages]);
  return update.returningAll().executeTakeFirst();
}

/** The owner ends the replaced secret before its overlap is over. */
export async function endPreviousApplicationSecret(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable("applications")
    .set({ previous_secret_hash: null, previous_secret_ends_at: null, updated_at: now })
    .where("id", "=", id)
    .where("previous_secret_hash", "is not", null)
    .execute();
}

/**
 * Suspends those of these applications that are not suspended yet and that `exempt` (another area's statement
 * answering application ids: those that still have an owner) does not name, with the reason the console shows, in
 * one statement. Answers the ids suspended.
 */
export function suspendApplicationsExcept<Table extends keyof Database>(
  db: Db,
  ids: readonly string[],
  exempt: SelectQueryBuilder<Database, Table, { application_id: string }>,
  reason: string,
  now: Date,
) {
  return db
    .updateTable("applications")
    .set({ suspended_at: now, suspension_reason: reason, updated_at: now })
    .where("id", "in", [...ids])
    .where("suspended_at", "is", null)
    .where("id", "not in", exempt)
    .returning("id")
    .execute();
}

/**
 * Deletes the application; the database's cascades take its tickets, consents, owners, testers, invitations,
 * reviews and changes. Audit rows stay, without it.
 */
export async function deleteApplication(db: Db, id: string): Promise<void> {
  await db.deleteFrom("applications").where("id", "=", id).execute();
}

/** Applications' names and titles by id, for lists that name them (the audit trail); deleted ones are left out. */
export async function applicationNamesByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { name: string; title: string; titleEn: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("applications")
    .select(["id", "name", "title", "title_en"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, { name: row.name, title: row.title, titleEn: row.title_en }]));
}
