import type { AccountActivity } from "@kpi-id/contracts";
import { auditEventsNamed } from "../../model/audit-trail/trail.ts";
import type { Db } from "../../platform/db/schema.ts";
import { describeDevice } from "../../platform/device/describe-device.ts";

/** How far back the account page shows activity, and at most how many entries. */
export const activityDays = 30;
const activityLimit = 200;

/** The person's own audit rows of the last 30 days (or `days`), newest first, at most `limit`. */
export async function recentActivityOf(
  db: Db,
  userId: string,
  now: Date,
  { days = activityDays, limit = activityLimit } = {},
): Promise<AccountActivity[]> {
  const since = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  // A phone joins Wi-Fi many times a day: those uses are listed on the Wi-Fi card; refused ones stay here.
  const rows = await auditEventsNamed(db, { userId, since, limit, exceptSuccessesOf: "wifi_sign_in" });
  return rows.map((row) => ({
    type: row.event_type,
    result: row.result,
    method: row.auth_method ?? "",
    application: row.application_name ?? "",
    ...describeDevice(row.user_agent),
    address: row.ip ?? "",
    reason: row.reason ?? "",
    at: row.occurred_at.toISOString(),
  }));
}
