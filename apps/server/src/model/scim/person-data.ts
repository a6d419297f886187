import type { PersonDataArea } from "../../platform/db/person-data.ts";

/**
 * The person's membership in groups the identity provider pushed: an erased person is nobody's member (the next
 * push would not name a stub; the rows would outlive them, as erasure keeps the account row for the audit trail).
 */
export const personData: PersonDataArea = {
  area: "scim",
  erase: async (db, person) => {
    await db.deleteFrom("scim_group_members").where("user_id", "=", person.id).execute();
    return {};
  },
};
