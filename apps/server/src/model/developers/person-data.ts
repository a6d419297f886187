import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { removeMembershipsOf } from "./erasure.ts";
import { deleteExpiredInvitations } from "./invitations.ts";
import { developerApplicationsOf } from "./memberships.ts";

/** Owner and tester rows, with the invitations: they count as access to applications. */
export const personData: PersonDataArea = {
  area: "developers",
  erase: async (db, person, now) => ({ applicationAccess: await removeMembershipsOf(db, person, now) }),
  exportOf: async (db, person, { now }) => ({
    developerApplications: await developerApplicationsOf(db, person.id, now),
  }),
  labels: {
    developerApplications: {
      uk: "Застосунки, якими ви володієте або які тестуєте (і запрошення до них)",
      en: "Applications you own or test (and invitations to them)",
    },
  },
  cleanUp: async (db, now) => ({ expiredInvitations: await deleteExpiredInvitations(db, now) }),
};
