import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deleteChallengesOf } from "./challenges.ts";
import { passkeysForExport, removeAllPasskeys } from "./credentials.ts";

/** Passkeys, and the challenges of passkey ceremonies under way. */
export const personData: PersonDataArea = {
  area: "passkeys",
  erase: async (db, person) => ({
    pendingSignIns: await deleteChallengesOf(db, person.id),
    passkeys: await removeAllPasskeys(db, person.id),
  }),
  exportOf: async (db, person) => ({ signInMethods: { passkeys: await passkeysForExport(db, person.id) } }),
};
