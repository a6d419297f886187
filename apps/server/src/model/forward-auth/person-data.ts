import type { PersonDataArea } from "../../platform/db/person-data.ts";

/**
 * The forward-auth endpoint's cookie sessions. Each hangs on a KPI ID session (on delete cascade), so the sessions'
 * erasure would take them too; named here so erasure does not depend on a foreign key to reach them.
 */
export const personData: PersonDataArea = {
  area: "forward-auth",
  erase: async (db, person) => {
    await db.deleteFrom("forward_auth_sessions").where("user_id", "=", person.id).execute();
    return {};
  },
};
