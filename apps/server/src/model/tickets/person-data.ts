import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deleteExpiredTickets, deleteTicketsOfPerson } from "./cleanup.ts";
import { pruneConsentRequests } from "./consent-requests.ts";

/** Tickets not yet exchanged, and ticket sign-in links waiting on the consent screen. */
export const personData: PersonDataArea = {
  area: "tickets",
  erase: async (db, person) => ({ pendingSignIns: await deleteTicketsOfPerson(db, person.id) }),
  cleanUp: async (db, now) => ({
    tickets: await deleteExpiredTickets(db, now),
    ticketConsentRequests: await pruneConsentRequests(db, now),
  }),
};
