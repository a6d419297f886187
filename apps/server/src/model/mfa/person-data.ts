import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { removeRecoveryCodes } from "./recovery-codes.ts";
import { removeTotp } from "./totp.ts";

/** The authenticator app and the recovery codes. */
export const personData: PersonDataArea = {
  area: "mfa",
  erase: async (db, person) => ({
    authenticatorApps: Number(await removeTotp(db, person.id)),
    recoveryCodes: await removeRecoveryCodes(db, person.id),
  }),
};
