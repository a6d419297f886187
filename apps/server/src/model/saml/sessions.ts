import type { Db } from "../../platform/db/schema.ts";

/** A SAML session record: the browser session, the SP it answered and the NameID and SessionIndex it sent. */
export interface SamlSessionRecord {
  sessionId: string;
  spEntityId: string;
  nameId: string;
  sessionIndex: string;
  now: Date;
}

/** Remembers which SP a session signed in to (single logout tells it); the same pair twice is kept once. */
export async function recordSamlSession(db: Db, record: SamlSessionRecord): Promise<void> {
  await db
    .insertInto("saml_sessions")
    .values({
      session_id: record.sessionId,
      sp_entity_id: record.spEntityId,
      name_id: record.nameId,
      session_index: record.sessionIndex,
      created_at: record.now,
    })
    .onConflict((conflict) => conflict.columns(["session_id", "sp_entity_id"]).doNothing())
    .execute();
}

/** The sessions an SP's LogoutRequest names (its NameID and, when given, its SessionIndexes). */
export function samlSessionsNamed(db: Db, spEntityId: string, nameId: string, sessionIndexes: string[]) {
  return db
    .selectFrom("saml_sessions")
    .select("session_id")
    .where("sp_entity_id", "=", spEntityId)
    .where("name_id", "=", nameId)
    .where("session_index", "in", sessionIndexes.length > 0 ? sessionIndexes : [""])
    .execute();
}

/** What each SP the sessions signed in to was told (NameID and SessionIndex), one row per SP and session. */
export async function samlSessionsOf(db: Db, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom("saml_sessions")
    .select(["sp_entity_id", "name_id", "session_index"])
    .where("session_id", "in", sessionIds)
    .execute();
}

/** Forgets the SAML session records of KPI ID sessions that end (SAML's part in every sign-out). */
export async function forgetSamlSessions(db: Db, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.deleteFrom("saml_sessions").where("session_id", "in", sessionIds).execute();
}
