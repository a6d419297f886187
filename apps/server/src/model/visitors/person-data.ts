import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { homeIdentitiesOf, removeHomeIdentitiesOf } from "./identities.ts";

/**
 * A person's identities at home institutions (a visitor's own, a campus person's links). The download leaves the
 * institution's identifier of the person out, as it does Google's: which institution and when is what they need.
 */
export const personData: PersonDataArea = {
  area: "visitors",
  erase: async (db, person) => {
    await removeHomeIdentitiesOf(db, person.id);
    // A sign-in at a home institution waiting for the person's "agree" (minutes), which names them.
    const waiting = await db.deleteFrom("visitor_sign_in_requests").where("user_id", "=", person.id).executeTakeFirst();
    return { pendingSignIns: Number(waiting.numDeletedRows) };
  },
  exportOf: async (db, person) => ({
    homeIdentities: (await homeIdentitiesOf(db, person.id)).map((identity) => ({
      institution: identity.institution,
      identifierKind: identity.subject_kind,
      visitor: identity.visitor,
      affiliations: identity.scoped_affiliations,
      assurance: identity.assurance,
      linkedAt: identity.created_at.toISOString(),
      lastSeenAt: identity.last_seen_at.toISOString(),
    })),
  }),
  labels: {
    homeIdentities: {
      uk: "Облікові записи в інших закладах (eduGAIN), без їхніх ідентифікаторів",
      en: "Accounts at home institutions (eduGAIN), without their identifiers",
    },
  },
};
