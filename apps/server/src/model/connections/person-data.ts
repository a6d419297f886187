import type { PersonDataArea } from "../../platform/db/person-data.ts";
import { connectedApplicationsOf } from "./applications.ts";

/**
 * The applications the person uses, for the data download: this area keeps no rows of its own (it reads access,
 * OpenID Connect grants and applications through their owners), so it has an export and no erasure.
 */
export const personData: PersonDataArea = {
  area: "connections",
  exportOf: async (db, person, { now }) => ({ applications: await connectedApplicationsOf(db, person.id, now) }),
  labels: { applications: { uk: "Підключені застосунки", en: "Connected applications" } },
};
