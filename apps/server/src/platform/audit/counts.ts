// Counts of audit rows the model shows as figures (issue 76: the audit table is read here, by its owner): an
// application's sign-ins per day on the developers' page, Wi-Fi's accepted and refused sign-ins in the console, and
// each LDAP client's binds.
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

/**
 * Each LDAP client's binds since `since` (the rows model/ldap/binds.ts writes, the client in details.clientId):
 * counts and the last one per client, and each client's `latestFailures` latest refusals, newest first.
 */
export async function ldapBindRows(db: Db, since: Date, latestFailures: number) {
  const clientId = sql<string>`details->>'clientId'`;
  const counted = await db
    .selectFrom("audit_events")
    .select([
      clientId.as("client_id"),
      sql<string>`count(*) filter (where result = 'success')`.as("accepted"),
      sql<string>`count(*) filter (where result = 'failure')`.as("refused"),
      sql<Date>`max(occurred_at)`.as("last_at"),
    ])
    .where("event_type", "=", "ldap_bind")
    .where("occurred_at", ">=", since)
    .where(clientId, "is not", null)
    .groupBy(clientId)
    .execute();
  const failures = await db
    .selectFrom(
      db
        .selectFrom("audit_events")
        .select([
          clientId.as("client_id"),
          "occurred_at",
          "reason",
          "ip",
          sql<number>`row_number() over (partition by details->>'clientId' order by occurred_at desc, id desc)`.as("n"),
        ])
        .where("event_type", "=", "ldap_bind")
        .where("result", "=", "failure")
        .where("occurred_at", ">=", since)
        .where(clientId, "is not", null)
        .as("ranked"),
    )
    .selectAll()
    .where("n", "<=", latestFailures)
    .orderBy("occurred_at", "desc")
    .execute();
  return { counted, failures };
}
