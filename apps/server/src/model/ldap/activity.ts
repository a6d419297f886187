import { type LdapBindRefusal, ldapBindRefusals, ldapClientActivityDays } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** Refused binds the console lists per client. */
const failuresShown = 10;
const dayMs = 86_400_000;

export interface LdapClientActivity {
  accepted: number;
  refused: number;
  lastAt: Date | null;
  failures: { at: Date; reason: LdapBindRefusal; address: string }[];
}

const isRefusal = (reason: string | null): reason is LdapBindRefusal =>
  (ldapBindRefusals as readonly (string | null)[]).includes(reason);

/**
 * Each client's binds (its service account's and people's through it) over the last ldapClientActivityDays days,
 * from the audit rows the responder writes (model/ldap/binds.ts, ldapBindAuditEvent): counts, the last one, and
 * its latest refusals. Clients without a bind are absent.
 */
export async function ldapClientActivity(db: Db, now: Date): Promise<Map<string, LdapClientActivity>> {
  const since = new Date(now.getTime() - ldapClientActivityDays * dayMs);
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
    .where("n", "<=", failuresShown)
    .orderBy("occurred_at", "desc")
    .execute();
  const activity = new Map<string, LdapClientActivity>();
  for (const row of counted) {
    activity.set(row.client_id, {
      accepted: Number(row.accepted),
      refused: Number(row.refused),
      lastAt: row.last_at === null ? null : new Date(row.last_at),
      failures: [],
    });
  }
  for (const row of failures) {
    if (!isRefusal(row.reason)) continue;
    activity.get(row.client_id)?.failures.push({ at: row.occurred_at, reason: row.reason, address: row.ip ?? "" });
  }
  return activity;
}
