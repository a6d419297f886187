import type { AuthMethod } from "@kpi-id/contracts";
import type { Insertable } from "kysely";
import { hashToken, newToken } from "../../platform/crypto/tokens.ts";
import type { Db, SessionsTable, User } from "../../platform/db/schema.ts";
import type { ListedApplication } from "../apps/listed.ts";
import { signInAmr, strengthColumns } from "./strength.ts";

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
}

/** A session read for GET /user and the page: with the applications the person may open, by title. */
export interface SessionWithApplications extends LoadedSession {
  applications: SessionApplication[];
  /** Whether the person holds a console role (admin, helpdesk): the page then links to the console. */
  consoleRole: boolean;
}

/** An application the account page lists (model/apps reads them in the session's statement). */
export type SessionApplication = ListedApplication;

export const secondsLater = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** A new session's row and its token, which only the cookie holds. */
export function newSessionRow(session: NewSession, timeouts: SessionTimeouts, now: Date) {
  const token = newToken();
  const amr = signInAmr(session.authMethod, session.amr);
  const absoluteExpiresAt = secondsLater(now, timeouts.absoluteTimeoutSeconds);
  const idleExpiresAt = secondsLater(now, Math.min(timeouts.idleTimeoutSeconds, timeouts.absoluteTimeoutSeconds));
  const row: Insertable<SessionsTable> = {
    token_hash: hashToken(token),
    user_id: session.userId,
    auth_method: session.authMethod,
    ...strengthColumns(amr, now),
    created_at: now,
    last_seen_at: now,
    idle_expires_at: idleExpiresAt,
    absolute_expires_at: absoluteExpiresAt,
    ip: session.ip ?? null,
    user_agent: session.userAgent?.slice(0, 512) ?? null,
  };
  return { token, row };
}

/** Stores a new session and returns its token, which only the cookie holds. */
export async function createSession(db: Db, session: NewSession, timeouts: SessionTimeouts, now: Date) {
  const { token, row } = newSessionRow(session, timeouts, now);
  const stored = await db.insertInto("sessions").values(row).returning("id").executeTakeFirstOrThrow();
  return { id: stored.id, token };
}

/** Deletes every session of the person without telling anyone (erasure, which did); how many. */
export async function deleteSessionsOf(db: Db, userId: string): Promise<number> {
  const deleted = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
