import { type LdapBindRefusal, ldapBindRefusals, ldapClientActivityDays } from "@kpi-id/contracts";
import { ldapBindRows } from "../../platform/audit/counts.ts";
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
  const { counted, failures } = await ldapBindRows(db, since, failuresShown);
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
