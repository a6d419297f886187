import type { Db, User } from "../../platform/db/schema.ts";
import { usersIn } from "../users/queries.ts";

/** The campus person a Google subject is linked to, whatever their status. */
export async function findUserByGoogleSubject(db: Db, subject: string): Promise<User | undefined> {
  const linked = db
    .selectFrom("external_identities")
    .select("user_id")
    .where("provider", "=", "google")
    .where("subject", "=", subject);
  const [person] = await usersIn(db, linked);
  return person;
}

/** Links a Google subject to a person; a subject already linked (to anyone) is left as it is. */
export async function linkGoogleSubject(db: Db, userId: string, subject: string): Promise<boolean> {
  const result = await db
    .insertInto("external_identities")
    .values({ provider: "google", subject, user_id: userId })
    .onConflict((conflict) => conflict.columns(["provider", "subject"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes every Google link of a person; answers how many there were. */
export async function unlinkGoogle(db: Db, userId: string): Promise<number> {
  const result = await db
    .deleteFrom("external_identities")
    .where("provider", "=", "google")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function googleSubjectsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("external_identities")
    .select("subject")
    .where("provider", "=", "google")
    .where("user_id", "=", userId)
    .execute();
  return rows.map((row) => row.subject);
}

/** When each of the person's identities was linked, whichever provider ("download my data": the subject is theirs). */
export async function identityLinkDatesOf(db: Db, userId: string): Promise<Date[]> {
  const rows = await db.selectFrom("external_identities").select("created_at").where("user_id", "=", userId).execute();
  return rows.map((row) => row.created_at);
}

/** Every linked identity of the person, whichever provider (erasure); answers how many there were. */
export async function removeIdentitiesOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("external_identities").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
