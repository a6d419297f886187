import type { ApplicationLifecycle } from "@kpi-id/contracts";
import { sql, type Updateable } from "kysely";
import type { ApplicationRow, ApplicationsTable, Db, NewApplication } from "../../platform/db/schema.ts";

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

/** Writes these fields of an application and answers the row as it now is. */
export function updateApplicationRow(
  db: Db,
  id: string,
  changes: Updateable<ApplicationsTable>,
): Promise<ApplicationRow> {
  return db.updateTable("applications").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
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
 * Suspends those of these applications that are not suspended yet and have no owner left (their only owner was
 * erased), with the reason the console shows. Answers the ids suspended.
 */
export function suspendOwnerlessApplications(db: Db, ids: readonly string[], reason: string, now: Date) {
  return db
    .updateTable("applications")
    .set({ suspended_at: now, suspension_reason: reason, updated_at: now })
    .where("id", "in", [...ids])
    .where("suspended_at", "is", null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("application_owners")
            .select("application_owners.user_id")
            .whereRef("application_owners.application_id", "=", "applications.id"),
        ),
      ),
    )
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
