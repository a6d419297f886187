import type { DeveloperPerson, DeveloperRole } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockApplication } from "../apps/for-developers.ts";
import { peopleNamesByIds, userIdByExactUsername } from "../users/queries.ts";

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
  const rows = await db
    .selectFrom(peopleTables[role])
    .select(["user_id", "added_at"])
    .where("application_id", "=", applicationId)
    .execute();
  const names = await peopleNamesByIds(
    db,
    rows.map((row) => row.user_id),
  );
  return rows
    .flatMap((row) => {
      const username = names.get(row.user_id)?.username;
      return username === undefined
        ? []
        : [{ username, addedAt: row.added_at.getTime(), you: row.user_id === viewerId }];
    })
    .sort((a, b) => a.addedAt - b.addedAt || (a.username < b.username ? -1 : a.username > b.username ? 1 : 0))
    .map(({ username, you }) => ({ username, you }));
}

/** The id of the member of this role with this username (as the owners' list shows it); undefined for anyone else. */
export async function memberNamed(db: Db, applicationId: string, role: ApplicationRole, username: string) {
  const userId = await userIdByExactUsername(db, username);
  if (userId === undefined) return undefined;
  const row = await db
    .selectFrom(peopleTables[role])
    .select("user_id")
    .where("application_id", "=", applicationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.user_id;
}

/** Removes a co-owner or tester; the last owner stays (developer.last_owner). True when someone was removed. */
export async function removePerson(db: Db, applicationId: string, role: ApplicationRole, userId: string) {
  return db.transaction().execute(async (tx) => {
    await lockApplication(tx, applicationId);
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
