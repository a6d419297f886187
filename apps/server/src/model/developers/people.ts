import { type DeveloperPerson, developerTesterLimit } from "@kpi-id/contracts";
import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";

/** Owners decide everything about the application; testers may only sign in while it is not live. */
export type ApplicationRole = "owner" | "tester";

const tables = { owner: "application_owners", tester: "application_testers" } as const;

/**
 * The active person with exactly this username or confirmed-or-not e-mail address. The owner learns only
 * whether the one person they named exists (and then only their username), never a list: no search, no
 * prefix, and an e-mail address shared by several people matches nobody.
 */
async function personNamed(db: Db, named: string): Promise<{ id: string; username: string } | undefined> {
  const lowered = named.toLowerCase();
  const column = named.includes("@") ? sql<string>`lower(email)` : sql<string>`lower(username)`;
  const rows = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where(column, "=", lowered)
    .where("status", "=", "active")
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/** The owners or testers, by username, oldest first. */
export async function peopleOf(
  db: Db,
  applicationId: string,
  role: ApplicationRole,
  viewerId: string,
): Promise<DeveloperPerson[]> {
  const rows = await db
    .selectFrom(tables[role])
    .innerJoin("users", "users.id", `${tables[role]}.user_id`)
    .select(["users.id", "users.username"])
    .where(`${tables[role]}.application_id`, "=", applicationId)
    .orderBy(`${tables[role]}.added_at`)
    .orderBy("users.username")
    .execute();
  return rows.map((row) => ({ id: row.id, username: row.username, you: row.id === viewerId }));
}

/**
 * Names a co-owner or tester. A tester beyond developerTesterLimit is refused (the application row is locked
 * for the count, so two requests at once cannot pass it). Returns the person's id, or throws
 * developer.person_not_found / developer.tester_limit.
 */
export async function addPerson(db: Db, applicationId: string, role: ApplicationRole, named: string): Promise<string> {
  const person = await personNamed(db, named);
  if (!person) throw new AppError("developer.person_not_found");
  await db.transaction().execute(async (tx) => {
    await tx.selectFrom("applications").select("id").where("id", "=", applicationId).forUpdate().execute();
    if (role === "tester") {
      const counted = await tx
        .selectFrom("application_testers")
        .select(sql<string>`count(*)`.as("testers"))
        .where("application_id", "=", applicationId)
        .where("user_id", "<>", person.id)
        .executeTakeFirstOrThrow();
      if (Number(counted.testers) >= developerTesterLimit) throw new AppError("developer.tester_limit");
    }
    await tx
      .insertInto(tables[role])
      .values({ application_id: applicationId, user_id: person.id })
      .onConflict((conflict) => conflict.columns(["application_id", "user_id"]).doNothing())
      .execute();
  });
  return person.id;
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
      .deleteFrom(tables[role])
      .where("application_id", "=", applicationId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  });
}
