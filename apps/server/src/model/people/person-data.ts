import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deleteRecordsOf } from "./records.ts";

/** Student records and positions. */
export const personData: PersonDataArea = {
  area: "people",
  erase: async (db, person) => ({ records: await deleteRecordsOf(db, person.id) }),
};
