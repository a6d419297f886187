import type { Db } from "../db/schema.ts";
import { revokeOidcGrants } from "./oidc-grants.ts";

/**
 * Who may use which application, decided here for every protocol (ticket, OpenID Connect, SAML):
 * at sign-in, at app redirect, at token use. Ending access here ends it everywhere at once.
 */

/** Whether the operator gave the person access to the application. */
export async function hasApplicationAccess(db: Db, userId: string, applicationId: string): Promise<boolean> {
  const row = await db
    .selectFrom("user_applications")
    .select("application_id")
    .where("user_id", "=", userId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function grantAccess(db: Db, userId: string, applicationId: string): Promise<void> {
  await db
    .insertInto("user_applications")
    .values({ user_id: userId, application_id: applicationId })
    .onConflict((conflict) => conflict.columns(["user_id", "application_id"]).doNothing())
    .execute();
}

/** Ends the person's access to the application, and with it the application's OpenID Connect tokens for them. */
export async function revokeAccess(db: Db, userId: string, applicationId: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .deleteFrom("user_applications")
      .where("user_id", "=", userId)
      .where("application_id", "=", applicationId)
      .executeTakeFirst();
    await revokeOidcGrants(tx, { userId, clientId: applicationId });
    return Number(result.numDeletedRows) > 0;
  });
}
