import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { forgetConsents } from "../access/consents.ts";

export interface GrantFilter {
  userId?: string;
  clientId?: string;
  /** These grants only (one browser's, when it signs out). */
  grantIds?: string[];
}

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/**
 * Ends the person's (or the application's) OpenID Connect grants at once: every grant, and every code, access and
 * refresh token issued under it. What the person consented to is model/access's (consents.ts's endOidcGrants ends
 * both where access ends); the provider also re-checks access at every token use, so a way of ending access that
 * does not call this still stops the tokens.
 */
export async function revokeOidcGrants(db: Db, filter: GrantFilter): Promise<number> {
  if (!filter.userId && !filter.clientId && !filter.grantIds)
    throw new Error("revokeOidcGrants needs a person, an application or grants");
  if (filter.grantIds?.length === 0) return 0;
  let grants = db.selectFrom("oidc_payloads").select("id").where("type", "=", "Grant");
  if (filter.userId) grants = grants.where(sql<string>`payload->>'accountId'`, "=", filter.userId);
  if (filter.clientId) grants = grants.where(sql<string>`payload->>'clientId'`, "=", filter.clientId);
  if (filter.grantIds) grants = grants.where("id", "in", filter.grantIds);
  const result = await db
    .deleteFrom("oidc_payloads")
    .where((eb) => eb.or([eb("grant_id", "in", grants), eb.and([eb("type", "=", "Grant"), eb("id", "in", grants)])]))
    .executeTakeFirst();
  return deleted(result);
}

/** Deletes every stored payload naming the application, codes and device codes waiting for their person too. */
export async function deletePayloadsOfClient(db: Db, clientId: string): Promise<number> {
  return deleted(
    await db.deleteFrom("oidc_payloads").where(sql<string>`payload->>'clientId'`, "=", clientId).executeTakeFirst(),
  );
}

/** Deletes the application's device codes waiting for their person (the device grant turned off). */
export async function deleteDeviceCodesOfClient(db: Db, clientId: string): Promise<void> {
  await db
    .deleteFrom("oidc_payloads")
    .where("type", "=", "DeviceCode")
    .where(sql<string>`payload->>'clientId'`, "=", clientId)
    .execute();
}

/** Deletes the provider's own rows naming the person as their account (sessions, grants, tokens). */
export async function deletePayloadsOfAccount(db: Db, userId: string): Promise<number> {
  return deleted(
    await db.deleteFrom("oidc_payloads").where(sql<string>`payload->>'accountId'`, "=", userId).executeTakeFirst(),
  );
}

/**
 * Ends a person's (or an application's) OpenID Connect grants and their tokens, and forgets the OpenID Connect consent
 * with them: access to the application ended, or the application left OpenID Connect. Answers how many rows went.
 */
export async function endOidcGrants(db: Db, of: { userId?: string; applicationId?: string }): Promise<number> {
  const ended = await revokeOidcGrants(db, { userId: of.userId, clientId: of.applicationId });
  await forgetConsents(db, of, ["oidc"]);
  return ended;
}

/** The person's live OpenID Connect grants (unexpired at `now`): each one's application and scopes. */
export function liveGrantsOf(db: Db, userId: string, now: Date) {
  return db
    .selectFrom("oidc_payloads")
    .select([
      sql<string>`payload->>'clientId'`.as("applicationId"),
      sql<string | null>`payload #>> '{openid,scope}'`.as("scope"),
    ])
    .where("type", "=", "Grant")
    .where(sql<string>`payload->>'accountId'`, "=", userId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .execute();
}
