import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deletePayloadsOfAccount, revokeOidcGrants } from "./grants.ts";

/** The provider's own rows naming the person as accountId (sessions, grants, tokens); grants take their tokens. */
export const personData: PersonDataArea = {
  area: "oidc",
  erase: async (db, person) => ({
    applicationTokens:
      (await revokeOidcGrants(db, { userId: person.id })) + (await deletePayloadsOfAccount(db, person.id)),
  }),
};
