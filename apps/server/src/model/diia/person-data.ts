import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deleteDiiaRequestsOf, deleteOldDiiaRequests } from "./requests.ts";

// A finished or expired Diia request is kept a day for support questions, then goes.
const diiaKeepMs = 24 * 60 * 60 * 1000;

/** Diia sign-in requests. */
export const personData: PersonDataArea = {
  area: "diia",
  erase: async (db, person) => ({ pendingSignIns: await deleteDiiaRequestsOf(db, person.id) }),
  cleanUp: async (db, now) => ({ diiaRequests: await deleteOldDiiaRequests(db, new Date(now.getTime() - diiaKeepMs)) }),
};
