import type { DeveloperPerson, DeveloperRole } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";

/** Owners decide everything about the application; testers may only sign in while it is not live. */
export type ApplicationRole = DeveloperRole;

export const peopleTables = { owner: "application_owners", tester: "application_testers" } as const;

/** The owners or testers who accepted, by username, oldest first; no ids (issue 56). */
export async function peopleOf(
  db: Db,
  applicationId: string,
  role: ApplicationRole,
  viewerId: string,
): Promise<DeveloperPerson[]> {
  const table = peopleTables[role];
  const rows = await db
    .selectFrom(table)
    .innerJoin("users", "users.id", `${table}.user_id`)
    .select(["users.id", "users.username"])
    .where(`${table}.application_id`, "=", applicationId)
    .orderBy(`${table}.added_at`)
    .orderBy("users.username")
    .execute();
  return rows.map((row) => ({ username: row.username, you: row.id === viewerId }));
}

/** The id of the member of this role with this username (as the owners' list shows it); undefined for anyone else. */
export async function memberNamed(db: Db, applicationId: string, role: ApplicationRole, username: string) {
  const table = peopleTables[role];
  const row = await db
    .selectFrom(table)
    .innerJoin("users", "users.id", `${table}.user_id`)
    .select("users.id")
    .where(`${table}.application_id`, "=", applicationId)
    .where("users.username", "=", username)
    .executeTakeFirst();
  return row?.id;
}

/** Removes a co-owner or tester; the last owner stays (developer.last_owner). True when someone was removed. */
export async function removePerson(db: Db, applicationId: string, role: ApplicationRole, userId: string) {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom("applications").select("id").where("id", "=", applicationId).forUpdate().execute();
    if (role === "owner") {
      const others = await tx
        .selectFrom("application_owners")
        .select("user_id")
        .where("application_id", "=", applicationId)
        .where("user_id", "<>", userId)
        .limit(1)
        .execute();
      if (others.length === 0) throw new AppError("developer.last_owner");
    }
    const removed = await tx
      .deleteFrom(peopleTables[role])
      .where("application_id", "=", applicationId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  });
}
