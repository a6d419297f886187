import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { deleteLoginGrantsOf } from "./grants.ts";
import { liveSessionsOf } from "./live.ts";
import { deleteSessionsOf } from "./store.ts";

/** Sessions (SAML's sessions go with them: on delete cascade) and login grants not yet exchanged. */
export const personData: PersonDataArea = {
  area: "sessions",
  erase: async (db, person) => ({
    sessions: await deleteSessionsOf(db, person.id),
    pendingSignIns: await deleteLoginGrantsOf(db, person.id),
  }),
  exportOf: async (db, person, { sessionId, now }) => ({
    sessions: await liveSessionsOf(db, person.id, sessionId, now),
  }),
  labels: { sessions: { uk: "Активні сеанси", en: "Active sessions" } },
};
