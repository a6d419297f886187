import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { revokeAllRoles } from "./operator-roles.ts";
import { revokeAllUnitRoles } from "./unit-roles.ts";

/**
 * Console roles, the university-wide ones and those held in units (counted together). The account row itself becomes a nameless stub last of all (model/privacy/erase.ts, with
 * anonymise.ts and retired-usernames.ts), after every other area and the audit rows.
 */
export const personData: PersonDataArea = {
  area: "users",
  erase: async (db, person) => ({
    consoleRoles: (await revokeAllRoles(db, person.id)) + Number(await revokeAllUnitRoles(db, person.id)),
  }),
};
