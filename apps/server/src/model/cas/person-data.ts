import type { PersonDataArea } from "../../platform/db/person-data.ts";

/**
 * CAS tickets (proxy-granting ones last as long as their session) and the sign-ins single logout names. A sign-out
 * takes the sign-ins first and tells the services (the console's erasure ends the sessions before it erases);
 * what is left here would outlive the person, since erasure keeps the account row and `on delete cascade` never fires.
 */
export const personData: PersonDataArea = {
  area: "cas",
  erase: async (db, person) => {
    await db.deleteFrom("cas_tickets").where("user_id", "=", person.id).execute();
    await db.deleteFrom("cas_sign_ins").where("user_id", "=", person.id).execute();
    return {};
  },
};
