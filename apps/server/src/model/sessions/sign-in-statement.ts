import type { Language } from "@kpi-id/contracts";
import { type AuditRow, auditedStatement } from "../../platform/audit/record.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { notePersonSignedIn } from "../users/sign-in-note.ts";
import { type NewSession, newSessionRow, type SessionTimeouts } from "./store.ts";

export interface StartedSession {
  sessionId: string;
  token: string;
  /** This was the person's first sign-in ever (nothing to compare a new browser with yet). */
  firstSignIn: boolean;
}

export interface SessionStart {
  /** The person as read for this sign-in (active: the caller checked). */
  person: User;
  session: NewSession;
  /** The session token the browser came with: that session ends, a token planted before sign-in is worthless. */
  previousToken: string | undefined;
  /** The language of the sign-in, kept on the person for mail sent without a request of theirs. */
  language: Language;
  /** The sign-in's audit row, written in the same statement. */
  auditRow: AuditRow;
  /** False when a browser waits for the answer (db/commit.ts). */
  waitForDisk: boolean;
  timeouts: SessionTimeouts;
  now: Date;
}

/**
 * Every write of a finished sign-in in one statement, one round trip, all or nothing: the session the browser
 * came with ends, the new session starts, the person's language and first sign-in are noted (model/users lends
 * that part) and the audit row is written. The first sign-in is kept on the person, not read from the audit
 * log, which AUDIT_RETENTION_DAYS prunes; whether this is it is judged from the person read with the grant: two
 * first sign-ins racing both count as first, so neither mails "new device".
 */
export async function startSession(db: Db, start: SessionStart): Promise<StartedSession> {
  const { person, language, now } = start;
  const { token, row } = newSessionRow(start.session, start.timeouts, now);
  // An empty cookie is no token; its hash names no session, so the delete then removes nothing.
  const previousHash = hashToken(start.previousToken ?? "");
  const stored = await auditedStatement(db, start.auditRow, { waitForDisk: start.waitForDisk })
    .with("previous_session", (query) => query.deleteFrom("sessions").where("token_hash", "=", previousHash))
    .with("person_noted", (query) => notePersonSignedIn(query, { personId: person.id, language, now }))
    .insertInto("sessions")
    .values(row)
    .returning("id")
    .executeTakeFirstOrThrow();
  return { sessionId: stored.id, token, firstSignIn: person.first_signed_in_at === null };
}
