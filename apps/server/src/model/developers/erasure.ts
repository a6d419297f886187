import { sql } from "kysely";
import { recordAuditEvents } from "../../platform/audit/record.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { suspendApplicationsExcept } from "../apps/queries.ts";

/** The audit row's reason when an erased person's application is left without owners. */
export const noOwnerLeftReason = "developer.no_owner_left";
/** The suspension's reason as the console's application page shows it (operators write theirs in words too). */
const noOwnerLeftText = "Власника стерто, інших власників немає / Its only owner was erased";

/**
 * An erased person leaves every application (issue 56): their owner and tester rows and the invitations to them
 * (by their id, or naming their username or address) go. An application left without an owner is suspended (no
 * one is left to answer for it) and an `application_suspended` row tells the operators, who find it in the
 * console's audit log and the application's page with the reason. Answers how many rows went.
 */
export async function removeMembershipsOf(
  db: Db,
  person: Pick<User, "id" | "username" | "email">,
  now: Date,
): Promise<number> {
  const names = [person.username, person.email]
    .filter((name): name is string => !!name)
    .map((name) => name.toLowerCase());
  const invitations = await db
    .deleteFrom("application_invitations")
    .where((eb) => eb.or([eb("user_id", "=", person.id), eb(sql<string>`lower(named)`, "in", names)]))
    .executeTakeFirst();
  const owned = await db
    .deleteFrom("application_owners")
    .where("user_id", "=", person.id)
    .returning("application_id")
    .execute();
  const tested = await db.deleteFrom("application_testers").where("user_id", "=", person.id).executeTakeFirst();
  const ownerless = owned.length
    ? await suspendApplicationsExcept(
        db,
        owned.map((row) => row.application_id),
        // Those with an owner left stay as they are.
        db.selectFrom("application_owners").select("application_id"),
        noOwnerLeftText,
        now,
      )
    : [];
  await recordAuditEvents(
    db,
    ownerless.map((row) => ({
      type: "application_suspended",
      result: "success",
      applicationId: row.id,
      reason: noOwnerLeftReason,
      occurredAt: now,
      details: { via: "erasure" },
    })),
  );
  return Number(invitations.numDeletedRows) + owned.length + Number(tested.numDeletedRows);
}
