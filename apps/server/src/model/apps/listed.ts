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
