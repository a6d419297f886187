import type { AuthMethod } from "@kpi-id/contracts";
import { sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { accessibleApplicationIds } from "../access/applications.ts";
import { hashToken, newToken } from "../crypto/tokens.ts";
import type { Db, User } from "../db/schema.ts";
import { strengthOfMethod } from "./strength.ts";

export interface SessionTimeouts {
  idleTimeoutSeconds: number;
  absoluteTimeoutSeconds: number;
}

export interface NewSession {
  userId: string;
  authMethod: AuthMethod;
  /** RFC 8176 values the sign-in achieved (strength.ts); the method's own when left out. */
  amr?: readonly string[];
  ip?: string;
  userAgent?: string;
}

export interface LoadedSession {
  id: string;
  userId: string;
  authMethod: AuthMethod;
  createdAt: Date;
  /** RFC 8176 values achieved (read them through strength.ts: `sessionAmr`, `isMultiFactor`). */
  amr: readonly string[];
  /** When a multi-factor proof last happened in this session, or null. */
  strongAt: Date | null;
  user: User;
  /** The applications the person may open, by title: read in the same statement, so GET /user costs one query. */
  applications: SessionApplication[];
}

export interface SessionApplication {
  id: string;
  name: string;
  title: string;
  description: string;
  /** Empty when the operator gave no English text. */
  title_en: string;
  description_en: string;
}

const secondsLater = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

// Sliding the idle expiry costs a write; once a minute keeps GET /user a read.
const touchIntervalMs = 60_000;

/** Stores a new session and returns its token, which only the cookie holds. */
export async function createSession(db: Db, session: NewSession, timeouts: SessionTimeouts, now: Date) {
  const token = newToken();
  const amr = session.amr ?? strengthOfMethod[session.authMethod];
  const absoluteExpiresAt = secondsLater(now, timeouts.absoluteTimeoutSeconds);
  const idleExpiresAt = secondsLater(now, Math.min(timeouts.idleTimeoutSeconds, timeouts.absoluteTimeoutSeconds));
  const row = await db
    .insertInto("sessions")
    .values({
      token_hash: hashToken(token),
      user_id: session.userId,
      auth_method: session.authMethod,
      amr: [...amr],
      strong_at: amr.includes("mfa") ? now : null,
      created_at: now,
      last_seen_at: now,
      idle_expires_at: idleExpiresAt,
      absolute_expires_at: absoluteExpiresAt,
      ip: session.ip ?? null,
      user_agent: session.userAgent?.slice(0, 512) ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

export async function deleteSessionByToken(db: Db, token: string) {
  return db.deleteFrom("sessions").where("token_hash", "=", hashToken(token)).returning("user_id").executeTakeFirst();
}

/**
 * The live session a token names, with its person and their applications; undefined when the token is
 * unknown, idle or past its absolute lifetime, or the person is disabled.
 * Expired rows are removed as they are found.
 */
export async function loadSession(
  db: Db,
  token: string,
  timeouts: SessionTimeouts,
  now: Date,
): Promise<LoadedSession | undefined> {
  const row = await db
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
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom("applications")
          .select([
            "applications.id",
            "applications.name",
            "applications.title",
            "applications.description",
            "applications.title_en",
            "applications.description_en",
          ])
          // Rules, grants and exclusions joined in the same statement (access/applications.ts).
          .where(sql<boolean>`applications.id in ${accessibleApplicationIds(sql.ref("sessions.user_id"))}`)
          .orderBy("applications.title"),
      ).as("applications"),
    )
    .where("sessions.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    session_id,
    auth_method,
    session_amr,
    session_strong_at,
    session_created_at,
    last_seen_at,
    idle_expires_at,
    absolute_expires_at,
    applications,
    ...user
  } = row;
  if (idle_expires_at <= now || absolute_expires_at <= now) {
    await db.deleteFrom("sessions").where("id", "=", session_id).execute();
    return undefined;
  }
  if (user.status !== "active") return undefined;
  if (now.getTime() - last_seen_at.getTime() >= touchIntervalMs) {
    const idle = secondsLater(now, timeouts.idleTimeoutSeconds);
    await db
      .updateTable("sessions")
      .set({ last_seen_at: now, idle_expires_at: new Date(Math.min(idle.getTime(), absolute_expires_at.getTime())) })
      .where("id", "=", session_id)
      .execute();
  }
  return {
    id: session_id,
    userId: user.id,
    authMethod: auth_method,
    createdAt: session_created_at,
    amr: session_amr,
    strongAt: session_strong_at,
    user,
    applications,
  };
}

/** A step-up inside the session: its `amr` becomes `amr` and its strong proof is dated now. */
export async function raiseSessionStrength(db: Db, sessionId: string, amr: readonly string[], now: Date) {
  await db
    .updateTable("sessions")
    .set({ amr: [...amr], strong_at: now })
    .where("id", "=", sessionId)
    .execute();
}
