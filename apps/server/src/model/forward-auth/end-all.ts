// Ends every cookie session of a protected site at once (forward-auth turned off for the application): headers.ts
// calls it in the transaction that takes the application off nginx.
import type { Db } from "../../platform/db/schema.ts";

/** Deletes the application's site sessions: its hosts' cookies stop working at once. */
export async function endSiteSessionsOf(db: Db, applicationId: string): Promise<void> {
  await db.deleteFrom("forward_auth_sessions").where("application_id", "=", applicationId).execute();
}
