import type { SelectQueryBuilder } from "kysely";
import type { ApplicationRow, Database, Db } from "../../platform/db/schema.ts";

// What the developers' page asks of applications: the rows its own tables name by id, the row locks its edits
// take, and the names no developer may take. The developers' tables stay theirs: they pass their ids in.

/** Ids of applications: a list, or another area's statement answering `application_id` (read in the same one). */
export type ApplicationIds<Table extends keyof Database> =
  | readonly string[]
  | SelectQueryBuilder<Database, Table, { application_id: string }>;

/** The applications with these ids, newest first. */
export async function applicationsIn<Table extends keyof Database>(
  db: Db,
  ids: ApplicationIds<Table>,
): Promise<ApplicationRow[]> {
  if (Array.isArray(ids) && ids.length === 0) return [];
  return db
    .selectFrom("applications")
    .selectAll()
    .where("id", "in", ids as readonly string[])
    .orderBy("created_at", "desc")
    .execute();
}

/** Locks the application's row for the caller's transaction: one edit, invitation or membership change at a time. */
export async function lockApplication(tx: Db, id: string): Promise<void> {
  await tx.selectFrom("applications").select("id").where("id", "=", id).forUpdate().execute();
}

/** The application's row, locked for the caller's transaction; undefined when it is gone. */
export function lockedApplication(tx: Db, id: string): Promise<ApplicationRow | undefined> {
  return tx.selectFrom("applications").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/**
 * The titles, in both languages, of the applications not among `except` and not named with `skippedPrefix`: the
 * operators' official applications, whose names nobody else may pose as.
 */
export async function titlesOfApplicationsExcept<Table extends keyof Database>(
  db: Db,
  except: ApplicationIds<Table>,
  skippedPrefix: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom("applications")
    .select(["title", "title_en"])
    .where("name", "not like", `${skippedPrefix}%`)
    .$if(!Array.isArray(except) || except.length > 0, (query) =>
      query.where("id", "not in", except as readonly string[]),
    )
    .execute();
  return rows.flatMap((row) => [row.title, row.title_en]);
}

/** The icon addresses applications show that start with `prefix` (the icons stored here, to keep). */
export async function iconUrlsStartingWith(db: Db, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom("applications").select("icon_url").where("icon_url", "like", `${prefix}%`).execute();
  return rows.map((row) => row.icon_url);
}
