import type { PersonalData } from "@kpi-id/contracts";
import { personDataLabels, personDataSections } from "../../model/privacy/export.ts";
import { findUserById } from "../../model/users/queries.ts";
import type { Db } from "../../platform/db/schema.ts";
import { recentActivityOf } from "./activity.ts";

/** The export carries the last year of security activity (the audit log keeps about that long). */
const activityDays = 365;
const activityLimit = 10_000;

// The audit trail is no model area (platform/audit keeps it, as erasure treats it apart): its section is added here.
const labels = personDataLabels({
  securityActivity: { uk: "Дії з безпеки за останній рік", en: "Security activity of the last year" },
});

/**
 * The signed-in person's data (docs/privacy.md), read in one go for the account page's download: every area that
 * keeps rows about a person fills its sections (model/privacy/areas.ts), labelled in both languages.
 */
export async function personalDataOf(
  db: Db,
  userId: string,
  sessionId: string,
  now: Date,
  wifiRealm: string,
): Promise<PersonalData> {
  const person = await findUserById(db, userId);
  if (!person) throw new Error(`no person ${userId}`);
  const securityActivity = await recentActivityOf(db, userId, now, { days: activityDays, limit: activityLimit });
  const sections = await personDataSections(db, person, { sessionId, now, wifiRealm }, { securityActivity });
  return { exportedAt: now.toISOString(), labels, ...sections };
}
