import { sql } from "kysely";
import { hashToken, newToken } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";
import { personRolesColumns, rolesFromColumns } from "../people/profile.ts";
import { noteSessionUse } from "../sessions/load.ts";
import type { SessionTimeouts } from "../sessions/store.ts";

/** The protected host's own cookie value: random, only its hash kept, bound to the application and the session. */
export async function startSiteSession(
  db: Db,
  bound: { applicationId: string; sessionId: string; userId: string },
  now: Date,
): Promise<string> {
  const token = newToken();
  await db
    .insertInto("forward_auth_sessions")
    .values({
      token_hash: hashToken(token),
      application_id: bound.applicationId,
      session_id: bound.sessionId,
      user_id: bound.userId,
      created_at: now,
    })
    .execute();
  return token;
}

/**
 * Who holds this cookie at this application, read afresh at every request nginx asks about: a revoked or expired
 * KPI ID session (its row deleted or past its expiry) or a disabled person answers undefined at once. A visit is
 * a use of the KPI ID session, which slides its idle expiry as KPI ID's own pages do.
 */
export async function siteVisitor(db: Db, token: string, applicationId: string, timeouts: SessionTimeouts, now: Date) {
  const roles = personRolesColumns(sql.ref<string>("users.id"));
  const row = await db
    .selectFrom("forward_auth_sessions as site")
    .innerJoin("sessions", "sessions.id", "site.session_id")
    .innerJoin("users", "users.id", "site.user_id")
    .where("site.token_hash", "=", hashToken(token))
    .where("site.application_id", "=", applicationId)
    .where("sessions.absolute_expires_at", ">", now)
    .where("sessions.idle_expires_at", ">", now)
    .where("users.status", "=", "active")
    .select(["users.id", "users.username", "users.full_name", "users.email", roles.affiliations.as("affiliations")])
    .select(["sessions.id as session_id", "sessions.last_seen_at", "sessions.idle_expires_at"])
    .select("sessions.absolute_expires_at")
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, last_seen_at, idle_expires_at, absolute_expires_at } = row;
  await noteSessionUse(db, { id: session_id, last_seen_at, idle_expires_at, absolute_expires_at }, timeouts, now);
  const visitor: SiteVisitor = {
    id: row.id,
    username: row.username,
    name: row.full_name,
    email: row.email ?? "",
    affiliations: rolesFromColumns({ affiliations: row.affiliations }).affiliations,
  };
  return visitor;
}

/** Signing out of the protected host forgets its cookie; the person is returned for the audit row. */
export async function endSiteSession(db: Db, token: string, applicationId: string) {
  return db
    .deleteFrom("forward_auth_sessions")
    .where("token_hash", "=", hashToken(token))
    .where("application_id", "=", applicationId)
    .returning(["user_id as userId", "session_id as sessionId"])
    .executeTakeFirst();
}

/** The person a protected site's request is answered for (protocols/forward-auth/headers.ts writes the headers). */
export interface SiteVisitor {
  id: string;
  username: string;
  name: string;
  email: string;
  affiliations: readonly string[];
}

/** The protected hosts' cookies of KPI ID sessions that end stop working (forward-auth's part in every sign-out). */
export async function endSiteSessionsOf(db: Db, sessionIds: readonly string[]): Promise<number> {
  if (sessionIds.length === 0) return 0;
  const ended = await db.deleteFrom("forward_auth_sessions").where("session_id", "in", sessionIds).executeTakeFirst();
  return Number(ended.numDeletedRows);
}
