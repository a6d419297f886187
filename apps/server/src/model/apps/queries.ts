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

/** Every application by its title, case aside: the console's list. */
export function listApplicationsByTitle(db: Db): Promise<ApplicationRow[]> {
  return db.selectFrom("applications").selectAll().orderBy(sql`lower(title)`).execute();
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
