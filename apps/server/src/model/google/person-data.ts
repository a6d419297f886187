import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { removeIdentitiesOf } from "./identities.ts";

/** The Google accounts linked to the person. */
export const personData: PersonDataArea = {
  area: "google",
  erase: async (db, person) => ({ googleLinks: await removeIdentitiesOf(db, person.id) }),
};
