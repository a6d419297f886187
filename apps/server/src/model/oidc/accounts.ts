import type { Kysely } from "kysely";
import type { Database } from "../../platform/db/schema.ts";
import { applicationAccess } from "../access/applications.ts";
import { personRolesColumns } from "../people/profile.ts";

/**
 * The person, whether they may use this application now and (with `withRoles`: the `kpi` scope's claims need
 * them) their campus roles' columns, all in one statement; undefined when there is no such person.
 */
export function accountWithAccess(db: Kysely<Database>, userId: string, clientId: string, withRoles: boolean) {
  return db
    .selectFrom("users")
    .selectAll()
    .select(applicationAccess(userId, clientId).as("allowed"))
    .$if(withRoles, (query) => {
      const columns = personRolesColumns(userId);
      return query.select([columns.affiliations.as("affiliations"), columns.records.as("records")]);
    })
    .where("id", "=", userId)
    .executeTakeFirst();
}
