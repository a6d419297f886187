import { type IntegrationFailureReason, type IntegrationHealth, integrationFailureLimit } from "@kpi-id/contracts";
import { applicationSignInsPerDay } from "../../platform/audit/counts.ts";
import type { Db } from "../../platform/db/schema.ts";

const healthDays = 30;
const dayMs = 86_400_000;

/**
 * Notes what an application's integration got wrong, for its owners' health view: the protocol and the
 * reason (and an unregistered return address as sent), never the person or any other value sent. Only the newest integrationFailureLimit stay,
 * so a flood of bad requests cannot grow the table. Never throws: a sign-in's answer does not wait on it.
 */
export async function recordIntegrationFailure(
  db: Db,
  applicationId: string,
  protocol: "ticket" | "oidc" | "cas" | "ldap",
  reason: IntegrationFailureReason,
  /** The unregistered return address that was tried (issue 60): what the integration sent, never the person's. */
  address = "",
): Promise<void> {
  try {
    // One statement (a failing integration may send many): the note goes in, and the notes beyond the newest
    // integrationFailureLimit go out. The delete sees the table as it was before the insert, so it keeps the
    // newest limit − 1 older notes beside the new one.
    await db
      .with("noted", (cte) =>
        cte
          .insertInto("integration_failures")
          .values({ application_id: applicationId, protocol, reason, address: address.slice(0, 2048) })
          .returning("id"),
      )
      .deleteFrom("integration_failures")
      .where("application_id", "=", applicationId)
      .where(
        "id",
        "<=",
        db
          .selectFrom("integration_failures")
          .select("id")
          .where("application_id", "=", applicationId)
          .orderBy("id", "desc")
          .offset(integrationFailureLimit - 1)
          .limit(1),
      )
      .execute();
  } catch {
    // The health view is a help for developers; a refused sign-in is answered the same without its note.
  }
}

/** Sign-ins per UTC day for the last 30 days (from the audit log) and the last failures, newest first. */
export async function integrationHealth(db: Db, applicationId: string, now: Date): Promise<IntegrationHealth> {
  const today = Math.floor(now.getTime() / dayMs) * dayMs;
  const since = new Date(today - (healthDays - 1) * dayMs);
  const counted = await applicationSignInsPerDay(db, applicationId, since);
  const byDay = new Map(counted.map((row) => [row.day, Number(row.n)]));
  const signInsPerDay = Array.from({ length: healthDays }, (_, index) => {
    const day = new Date(since.getTime() + index * dayMs).toISOString().slice(0, 10);
    return { day, signIns: byDay.get(day) ?? 0 };
  });
  const failures = await db
    .selectFrom("integration_failures")
    .select(["id", "occurred_at", "protocol", "reason", "address"])
    .where("application_id", "=", applicationId)
    .orderBy("id", "desc")
    .limit(integrationFailureLimit)
    .execute();
  return {
    signInsPerDay,
    failures: failures.map((row) => ({
      id: String(row.id),
      at: row.occurred_at.toISOString(),
      protocol: row.protocol,
      reason: row.reason as IntegrationFailureReason,
      address: row.address,
    })),
  };
}
