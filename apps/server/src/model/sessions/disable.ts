import type { Db } from "../../platform/db/schema.ts";
import { forgetConsents } from "../access/consents.ts";
import { updateUser } from "../users/queries.ts";
import { type EndedSessions, endSessionsWithin, type SessionEnding, type Why } from "./end-sessions.ts";

/**
 * A disabled person loses every session and every application's tokens at once (endSessions: the protocols end
 * theirs), and what they consented to. The applications are told once the change is committed; how many ended.
 */
export async function disableUser(ending: SessionEnding, id: string, actor: Omit<Why, "reason"> = {}): Promise<number> {
  const ended = await ending.db.transaction().execute((tx) => disableUserWithin(tx, ending, id, actor));
  await ended.tellApplications();
  return ended.count;
}

/**
 * disableUser's statements, for a caller that already holds a transaction (SCIM's writes); call the answer's
 * tellApplications after it commits.
 */
export async function disableUserWithin(
  tx: Db,
  ending: Omit<SessionEnding, "db">,
  id: string,
  actor: Omit<Why, "reason"> = {},
): Promise<EndedSessions> {
  await updateUser(tx, id, { status: "disabled" });
  const ended = await endSessionsWithin(tx, ending, { userId: id }, { ...actor, reason: "disabled" });
  // The tokens ended with the sessions (the protocols'); what the person consented to goes too.
  await forgetConsents(tx, { userId: id });
  return ended;
}
