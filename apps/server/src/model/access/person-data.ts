import type { PersonalData } from "@kpi-id/contracts";
import type { PersonDataArea } from "../../platform/db/person-data.ts";
import type { Db } from "../../platform/db/schema.ts";
import { removeAllAccessOf } from "./applications.ts";
import { consentsGivenBy, forgetConsents } from "./consents.ts";

/** The consents the person gave over OpenID Connect and SAML (the ticket path's show with the applications). */
async function consentsOf(db: Db, userId: string): Promise<PersonalData["consents"]> {
  const given = await consentsGivenBy(db, userId);
  return {
    openIdConnect: given.flatMap((consent) =>
      consent.protocol === "oidc"
        ? [{ application: consent.applicationTitle, scopes: consent.allowed, until: consent.until.toISOString() }]
        : [],
    ),
    saml: given.flatMap((consent) =>
      consent.protocol === "saml"
        ? [{ serviceProvider: consent.spEntityId, attributes: consent.allowed, givenAt: consent.givenAt.toISOString() }]
        : [],
    ),
  };
}

/**
 * What the person allowed applications on every protocol, and the access given to them or taken from them (the
 * applications they use are model/connections' section).
 */
export const personData: PersonDataArea = {
  area: "access",
  erase: async (db, person) => ({
    consents: await forgetConsents(db, { userId: person.id }),
    applicationAccess: await removeAllAccessOf(db, person.id),
  }),
  exportOf: async (db, person) => ({ consents: await consentsOf(db, person.id) }),
  labels: { consents: { uk: "Надані згоди", en: "Consents given" } },
};
