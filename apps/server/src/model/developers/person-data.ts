import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { removeMembershipsOf } from "./erasure.ts";
import { deleteExpiredInvitations } from "./invitations.ts";

/** Owner and tester rows, with the invitations: they count as access to applications. */
export const personData: PersonDataArea = {
  area: "developers",
  erase: async (db, person, now) => ({ applicationAccess: await removeMembershipsOf(db, person, now) }),
  cleanUp: async (db, now) => ({ expiredInvitations: await deleteExpiredInvitations(db, now) }),
};
