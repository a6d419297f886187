// Counts of audit rows the model shows as figures (issue 76: the audit table is read here, by its owner): an
// application's sign-ins per day on the developers' page, and Wi-Fi's accepted and refused sign-ins in the console.
import { sql } from "kysely";
import type { Db } from "../db/schema.ts";

/**
 * An application's accepted sign-ins per UTC day since `since` (days without any are left out). A CAS proxy ticket
 * (/cas/proxy, audited as an app_redirect with `proxy`) is a service reaching another on the person's behalf, not
 * the person signing in: the sign-in was counted once, at /cas/login.
 */
export function applicationSignInsPerDay(db: Db, applicationId: string, since: Date) {
  return (
    db
      .selectFrom("audit_events")
      .select([
        sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
        sql<string>`count(*)`.as("n"),
      ])
      .where("application_id", "=", applicationId)
      .where("occurred_at", ">=", since)
      .where("result", "=", "success")
      // An LDAP bind through the application's registered client (a lab machine's login, Nextcloud's check) is a
      // sign-in to it too.
      .where("event_type", "in", ["app_redirect", "oidc_sign_in", "oidc_device_confirmed", "ldap_bind"])
      .where(sql<boolean>`(details->>'proxy') is distinct from 'true'`)
      .groupBy("day")
      .execute()
  );
}

/** Wi-Fi sign-ins accepted and refused per UTC day since `since`, oldest first. */
export function wifiSignInsPerDay(db: Db, since: Date) {
  return db
    .selectFrom("audit_events")
    .select([
      sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
      sql<string>`count(*) filter (where result = 'success')`.as("accepted"),
      sql<string>`count(*) filter (where result = 'failure')`.as("refused"),
    ])
    .where("event_type", "=", "wifi_sign_in")
    .where("occurred_at", ">=", since)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
}

/** Refused Wi-Fi sign-ins since `since` by their reason, the most frequent first. */
export function wifiRefusalsByReason(db: Db, since: Date) {
  return db
    .selectFrom("audit_events")
    .select([sql<string>`coalesce(reason, '')`.as("reason"), sql<string>`count(*)`.as("count")])
    .where("event_type", "=", "wifi_sign_in")
    .where("result", "=", "failure")
    .where("occurred_at", ">=", since)
    .groupBy(sql`1`)
    .orderBy(sql`2 desc`)
    .execute();
}
