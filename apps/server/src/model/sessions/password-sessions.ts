import type { FastifyInstance } from "fastify";
import { revokeOidcGrants } from "../access/oidc-grants.ts";

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * After a password change or reset: every session of the person but `keepId` (none when undefined)
 * ends, and with them the OpenID Connect sessions started in them (back-channel logout goes out).
 * Every OpenID Connect grant of the person ends too, with its access and refresh tokens, `offline_access`
 * ones included (an ordinary sign-out keeps those): whoever knew the old password may hold one. What the person
 * consented to is kept. Answers how many sessions ended.
 */
export async function endSessionsAfterPasswordChange(
  app: FastifyInstance,
  userId: string,
  keepId?: string,
): Promise<number> {
  let query = app.db.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepId) query = query.where("id", "!=", keepId);
  const ended = await query.returning("created_at").execute();
  await app.protocolSignOut.sessionsStartedAt(
    userId,
    ended.map((row) => seconds(row.created_at)),
  );
  await revokeOidcGrants(app.db, { userId, keepConsents: true });
  return ended.length;
}
