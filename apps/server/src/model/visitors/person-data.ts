import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { removeHomeIdentitiesOf } from "./identities.ts";

/** A person's identities at home institutions (a visitor's own, a campus person's links). */
export const personData: PersonDataArea = {
  area: "visitors",
  erase: async (db, person) => {
    await removeHomeIdentitiesOf(db, person.id);
    return {};
  },
};
