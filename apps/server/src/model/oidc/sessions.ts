import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** The provider sessions of this person that followed sign-ins at these times (seconds, the provider's loginTs). */
export function oidcSessionsSignedInAt(db: Db, accountId: string, loginTimes: number[]) {
  return db
    .selectFrom("oidc_payloads")
    .select(["id", "payload"])
    .where("type", "=", "Session")
    .where(sql<string>`payload->>'accountId'`, "=", accountId)
    .where(sql<string>`payload->>'loginTs'`, "in", loginTimes.map(String))
    .execute();
}

/** The provider session a browser's cookie names (the library keeps it under the cookie's value), if the person's. */
export function oidcSessionNamed(db: Db, accountId: string, id: string) {
  return db
    .selectFrom("oidc_payloads")
    .select(["id", "payload"])
    .where("type", "=", "Session")
    .where("id", "=", id)
    .where(sql<string>`payload->>'accountId'`, "=", accountId)
    .execute();
}

export async function deleteOidcSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("oidc_payloads").where("type", "=", "Session").where("id", "=", id).execute();
}
