import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { identityLinkDatesOf, removeIdentitiesOf } from "./identities.ts";

/** The Google accounts linked to the person (the download shows when each was linked, not Google's id of them). */
export const personData: PersonDataArea = {
  area: "google",
  erase: async (db, person) => ({ googleLinks: await removeIdentitiesOf(db, person.id) }),
  exportOf: async (db, person) => ({
    signInMethods: {
      googleAccounts: (await identityLinkDatesOf(db, person.id)).map((linkedAt) => ({
        linkedAt: linkedAt.toISOString(),
      })),
    },
  }),
};
