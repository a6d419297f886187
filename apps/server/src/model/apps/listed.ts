import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** An application as the account page lists it: what to open and what to call it in either language. */
export interface ListedApplication {
  id: string;
  name: string;
  title: string;
  description: string;
  /** Empty when the operator gave no English text. */
  title_en: string;
  description_en: string;
}

/**
 * The applications whose ids `ids` selects, by title, as a JSON array column of the caller's statement: GET /user
 * reads them in the session's own statement (model/sessions/load.ts, one query), the ids from access's rules.
 */
export function listedApplications(ids: RawBuilder<string>): RawBuilder<ListedApplication[]> {
  return sql<ListedApplication[]>`(select coalesce(json_agg(agg), '[]') from (
    select applications.id, applications.name, applications.title, applications.description,
      applications.title_en, applications.description_en
    from applications where applications.id in ${ids} order by applications.title) as agg)`;
}

/** The applications whose ids `ids` selects (another area's subquery), by title: the console's person screen. */
export function applicationsByTitle(db: Db, ids: RawBuilder<string>) {
  return db
    .selectFrom("applications")
    .select(["applications.id", "applications.name", "applications.title", "applications.title_en as titleEn"])
    .where(sql<boolean>`applications.id in ${ids}`)
    .orderBy("applications.title")
    .execute();
}

/** The live applications among those `ids` selects (a subquery from access), by title: what a sponsor may name. */
export function liveApplicationsAmong(db: Db, ids: RawBuilder<string>) {
  return db
    .selectFrom("applications")
    .select(["id", "title", "title_en"])
    .where(sql<boolean>`id in ${ids}`)
    .where("lifecycle", "=", "live")
    .orderBy("title")
    .execute();
}

/** The applications whose ids `ids` selects, as a JSON array of `{ id, name }` by title (a guest's applications). */
export function applicationsJson(
  ids: RawBuilder<unknown>,
  english: boolean,
): RawBuilder<{ id: string; name: string }[]> {
  const name = english ? sql`coalesce(nullif(a.title_en, ''), a.title)` : sql`a.title`;
  return sql<{ id: string; name: string }[]>`coalesce((select json_agg(json_build_object('id', a.id, 'name', ${name})
    order by a.title) from applications a where a.id in ${ids}), '[]'::json)`;
}

/** These applications' titles in both languages, by title (the person's connected applications). */
export function applicationTitles(db: Db, ids: readonly string[]) {
  return db
    .selectFrom("applications")
    .select(["id", "title", "title_en"])
    .where("id", "in", [...ids])
    .orderBy("title")
    .execute();
}

/**
 * The application's title, as an SQL expression of the caller's statement (its id one of that statement's): the
 * consents an account lists name their application so.
 */
export function applicationTitleOf(applicationId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(select titled.title from applications titled where titled.id = ${applicationId})`;
}
