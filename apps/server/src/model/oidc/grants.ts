import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { forgetOidcConsents } from "../access/oidc-consents.ts";

export interface GrantFilter {
  userId?: string;
  clientId?: string;
  /** These grants only (one browser's, when it signs out). */
  grantIds?: string[];
  /** The person's remembered consent stays (a changed password ends tokens, not what the person allowed). */
  keepConsents?: boolean;
}

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/**
 * Ends the person's (or the application's) OpenID Connect grants at once:
 * every grant, and every code, access and refresh token issued under it, and the remembered consent
 * (model/access's). Called wherever access ends (revoke, a disabled person, OpenID Connect
 * turned off); the provider also re-checks access at every token use, so a
 * way of ending access that does not call this still stops the tokens.
 */
export async function revokeOidcGrants(db: Db, filter: GrantFilter): Promise<number> {
  if (!filter.userId && !filter.clientId && !filter.grantIds)
    throw new Error("revokeOidcGrants needs a person, an application or grants");
  if (filter.grantIds?.length === 0) return 0;
  let grants = db.selectFrom("oidc_payloads").select("id").where("type", "=", "Grant");
  if (filter.userId) grants = grants.where(sql<string>`payload->>'accountId'`, "=", filter.userId);
  if (filter.clientId) grants = grants.where(sql<string>`payload->>'clientId'`, "=", filter.clientId);
  if (filter.grantIds) grants = grants.where("id", "in", filter.grantIds);
  // Consent belongs to a person or an application: grants named alone (one browser's sign-out) leave it, where an
  // unfiltered delete would forget everyone's.
  if (!filter.keepConsents && (filter.userId || filter.clientId)) {
    await forgetOidcConsents(db, { userId: filter.userId, applicationId: filter.clientId });
  }
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
