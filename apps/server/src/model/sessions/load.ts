import { type RawBuilder, sql } from "kysely";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { listedApplications } from "../apps/listed.ts";
import { holdsConsoleRole } from "../users/operator-roles.ts";
import {
  type LoadedSession,
  type SessionApplication,
  type SessionTimeouts,
  type SessionWithApplications,
  secondsLater,
} from "./store.ts";

// Sliding the idle expiry costs a write; once a minute keeps GET /user a read.
const touchIntervalMs = 60_000;

/** A live session and until when it may be answered without reading it again (sessions/cache.ts). */
export interface LiveSession<S extends LoadedSession> {
  session: S;
  /** Its idle or absolute expiry, or when its use must next be noted, whichever comes first. */
  validUntil: Date;
}

/** The session's own columns beside the person's, as one row of the lookup. */
function sessionQuery(db: Db, token: string) {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select([
      "sessions.id as session_id",
      "sessions.auth_method",
      "sessions.amr as session_amr",
      "sessions.strong_at as session_strong_at",
      "sessions.created_at as session_created_at",
      "sessions.last_seen_at",
      "sessions.idle_expires_at",
      "sessions.absolute_expires_at",
    ])
    .where("sessions.token_hash", "=", hashToken(token));
}

/**
 * Notes a use of a live session: slides its idle expiry, at most once a minute (a write), never past its absolute
 * lifetime. A site behind nginx (forward-auth) notes its visits too, so a person busy there stays signed in.
 */
export async function noteSessionUse(
  db: Db,
  session: { id: string; last_seen_at: Date; idle_expires_at: Date; absolute_expires_at: Date },
  timeouts: SessionTimeouts,
  now: Date,
): Promise<{ seenAt: Date; idleExpiresAt: Date }> {
  if (now.getTime() - session.last_seen_at.getTime() < touchIntervalMs) {
    return { seenAt: session.last_seen_at, idleExpiresAt: session.idle_expires_at };
  }
  const idle = secondsLater(now, timeouts.idleTimeoutSeconds);
  const idleExpiresAt = new Date(Math.min(idle.getTime(), session.absolute_expires_at.getTime()));
  await db
    .updateTable("sessions")
    .set({ last_seen_at: now, idle_expires_at: idleExpiresAt })
    .where("id", "=", session.id)
    .execute();
  return { seenAt: now, idleExpiresAt };
}

type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirst"]>>>;

/**
 * The live session of a row; undefined when it is idle or past its absolute lifetime (the row is removed as
 * it is found) or the person is disabled. Slides the idle expiry at most once a minute.
 */
async function liveSession(
  db: Db,
  row: SessionRow,
  timeouts: SessionTimeouts,
  now: Date,
): Promise<LiveSession<LoadedSession> | undefined> {
  const {
    session_id,
    auth_method,
    session_amr,
    session_strong_at,
    session_created_at,
    last_seen_at,
    idle_expires_at,
    absolute_expires_at,
    ...user
  } = row;
  if (idle_expires_at <= now || absolute_expires_at <= now) {
    await db.deleteFrom("sessions").where("id", "=", session_id).execute();
    return undefined;
  }
  if (user.status !== "active") return undefined;
  const { seenAt, idleExpiresAt } = await noteSessionUse(
    db,
    { id: session_id, last_seen_at, idle_expires_at, absolute_expires_at },
    timeouts,
    now,
  );
  // Also at most a minute from now: another instance's clock ahead of ours could date the last use later.
  const validUntil = Math.min(
    idleExpiresAt.getTime(),
    absolute_expires_at.getTime(),
    seenAt.getTime() + touchIntervalMs,
    now.getTime() + touchIntervalMs,
  );
  const session: LoadedSession = {
    id: session_id,
    userId: user.id,
    authMethod: auth_method,
    createdAt: session_created_at,
    amr: session_amr,
    strongAt: session_strong_at,
    user: user satisfies User,
  };
  return { session, validUntil: new Date(validUntil) };
}

/**
 * The live session a token names, with its person; undefined when the token is unknown, idle or past its
 * absolute lifetime, or the person is disabled. One indexed statement: what every signed-in request but
 * GET /user and the page needs.
 */
export async function loadSession(
  db: Db,
  token: string,
  timeouts: SessionTimeouts,
  now: Date,
): Promise<LoadedSession | undefined> {
  const row = await sessionQuery(db, token).executeTakeFirst();
  return row ? (await liveSession(db, row, timeouts, now))?.session : undefined;
}

/**
 * The same, with the applications the person may open, by title, and whether they hold a console role, read in
 * the same statement (so GET /user costs one query): `accessibleIds` answers the ids of the person's applications
 * (model/admission lends its subquery, which joins the access rules, grants and exclusions).
 */
export async function loadSessionWithListedApplications(
  db: Db,
  token: string,
  timeouts: SessionTimeouts,
  now: Date,
  accessibleIds: (userId: RawBuilder<unknown>) => RawBuilder<string>,
): Promise<LiveSession<SessionWithApplications> | undefined> {
  const row = await sessionQuery(db, token)
    .select(listedApplications(accessibleIds(sql.ref("sessions.user_id"))).as("applications"))
    // A role, university-wide or in a unit (issue 79), opens the console.
    .select(holdsConsoleRole(sql.ref("sessions.user_id")).as("console_role"))
    .executeTakeFirst();
  if (!row) return undefined;
  const { applications, console_role, ...rest } = row;
  const live = await liveSession(db, rest, timeouts, now);
  if (!live) return undefined;
  const session = {
    ...live.session,
    applications: applications satisfies SessionApplication[],
    consoleRole: Boolean(console_role),
  };
  return { session, validUntil: live.validUntil };
}
