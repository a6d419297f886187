import type { FastifyInstance } from "fastify";
import { endOidcSessionsSignedInAt } from "../oidc/logout.ts";

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * After a password change or reset: every session of the person but `keepId` (none when undefined)
 * ends, and with them the OpenID Connect sessions started in them (back-channel logout goes out).
 * Answers how many ended.
 */
export async function endSessionsAfterPasswordChange(
  app: FastifyInstance,
  userId: string,
  keepId?: string,
): Promise<number> {
  let query = app.db.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepId) query = query.where("id", "!=", keepId);
  const ended = await query.returning("created_at").execute();
  await endOidcSessionsSignedInAt(
    app,
    userId,
    ended.map((row) => seconds(row.created_at)),
  );
  return ended.length;
}
