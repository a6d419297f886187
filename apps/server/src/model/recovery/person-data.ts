import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deleteExpiredResetTokens, deleteResetTokensOf } from "./tokens.ts";

/** Password-reset links not yet used. */
export const personData: PersonDataArea = {
  area: "recovery",
  erase: async (db, person) => ({ pendingSignIns: await deleteResetTokensOf(db, person.id) }),
  cleanUp: async (db, now) => ({ resetTokens: await deleteExpiredResetTokens(db, now) }),
};
