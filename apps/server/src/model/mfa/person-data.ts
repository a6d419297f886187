import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { recoveryCodesLeft, removeRecoveryCodes } from "./recovery-codes.ts";
import { removeTotp, totpState } from "./totp.ts";

/** The authenticator app and the recovery codes. */
export const personData: PersonDataArea = {
  area: "mfa",
  erase: async (db, person) => ({
    authenticatorApps: Number(await removeTotp(db, person.id)),
    recoveryCodes: await removeRecoveryCodes(db, person.id),
  }),
  exportOf: async (db, person) => {
    const totp = await totpState(db, person.id);
    return {
      signInMethods: {
        authenticatorApp: totp ? { confirmedAt: totp.confirmedAt?.toISOString() ?? null } : null,
        recoveryCodesLeft: await recoveryCodesLeft(db, person.id),
      },
    };
  },
};
