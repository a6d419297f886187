import type { FastifyRequest } from "fastify";

/**
 * Whether the person has signed in anywhere before. A browser without this person in its device
 * cookie (device-cookie.ts) is new to them, and they are told by mail, except at their very first
 * sign-in, when there is nothing to compare with yet.
 */
export async function hasSignedInBefore(request: FastifyRequest, userId: string): Promise<boolean> {
  const earlier = await request.server.db
    .selectFrom("audit_events")
    .select("id")
    .where("user_id", "=", userId)
    .where("event_type", "=", "session_start")
    .where("result", "=", "success")
    .limit(1)
    .executeTakeFirst();
  return earlier !== undefined;
}
