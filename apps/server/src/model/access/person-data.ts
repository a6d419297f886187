import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { removeAllAccessOf } from "./applications.ts";
import { forgetConsents } from "./consents.ts";

/** What the person allowed applications on every protocol, and the access given to them or taken from them. */
export const personData: PersonDataArea = {
  area: "access",
  erase: async (db, person) => ({
    consents: await forgetConsents(db, { userId: person.id }),
    applicationAccess: await removeAllAccessOf(db, person.id),
  }),
};
