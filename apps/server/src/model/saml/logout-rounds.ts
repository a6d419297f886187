import { randomBytes } from "node:crypto";
import type { Db } from "../../platform/db/schema.ts";

/** A round that a browser abandons (closed tab, an SP that never answers) is forgotten after this. */
const roundSeconds = 10 * 60;

export interface RoundStart {
  /** The KPI ID sessions ending: every SAML SP they signed in to is told, but the initiator. */
  sessionIds: string[];
  /** The SP whose LogoutRequest started the round, answered at the end. */
  initiator?: { spEntityId: string; requestId: string; relayState: string | null };
  /** Where a KPI ID sign-out ends. */
  returnTo?: string;
  now: Date;
}

/**
 * Records which SPs the browser must carry a LogoutRequest to. Called before the sessions
 * are deleted (their saml_sessions go with them). Answers the round's id, or undefined when
 * there is nobody to tell and nobody to answer.
 */
export async function startLogoutRound(db: Db, start: RoundStart): Promise<string | undefined> {
  await db.deleteFrom("saml_logout_rounds").where("expires_at", "<", start.now).execute();
  const participants =
    start.sessionIds.length === 0
      ? []
      : await db
          .selectFrom("saml_sessions")
          .select(["sp_entity_id", "name_id", "session_index"])
          .where("session_id", "in", start.sessionIds)
          .where("sp_entity_id", "!=", start.initiator?.spEntityId ?? "")
          .execute();
  if (participants.length === 0 && !start.initiator) return undefined;
  const id = randomBytes(24).toString("base64url");
  await db
    .insertInto("saml_logout_rounds")
    .values({
      id,
      initiator_sp: start.initiator?.spEntityId ?? null,
      initiator_request_id: start.initiator?.requestId ?? null,
      initiator_relay_state: start.initiator?.relayState ?? null,
      return_to: start.returnTo ?? null,
      expires_at: new Date(start.now.getTime() + roundSeconds * 1000),
    })
    .execute();
  // One SP may be in two of the sessions; it is told once.
  const unique = [...new Map(participants.map((row) => [row.sp_entity_id, row])).values()];
  if (unique.length > 0)
    await db
      .insertInto("saml_logout_participants")
      .values(unique.map((row) => ({ round_id: id, ...row })))
      .execute();
  return id;
}

export const findLogoutRound = (db: Db, id: string, now: Date) =>
  db.selectFrom("saml_logout_rounds").selectAll().where("id", "=", id).where("expires_at", ">", now).executeTakeFirst();

export type LogoutRound = NonNullable<Awaited<ReturnType<typeof findLogoutRound>>>;

/** The round waiting on the SP's answer to the LogoutRequest with this ID. */
export const roundAwaiting = (db: Db, requestId: string, now: Date) =>
  db
    .selectFrom("saml_logout_rounds")
    .selectAll()
    .where("awaiting_request_id", "=", requestId)
    .where("expires_at", ">", now)
    .executeTakeFirst();

/** Takes the next SP to tell (it leaves the round), or undefined when all have been told. */
export async function takeNextParticipant(db: Db, roundId: string) {
  const next = await db
    .selectFrom("saml_logout_participants")
    .selectAll()
    .where("round_id", "=", roundId)
    .orderBy("sp_entity_id")
    .limit(1)
    .executeTakeFirst();
  if (!next) return undefined;
  await db
    .deleteFrom("saml_logout_participants")
    .where("round_id", "=", roundId)
    .where("sp_entity_id", "=", next.sp_entity_id)
    .execute();
  return next;
}

export const awaitAnswer = (db: Db, roundId: string, requestId: string | null) =>
  db.updateTable("saml_logout_rounds").set({ awaiting_request_id: requestId }).where("id", "=", roundId).execute();

export const endLogoutRound = (db: Db, roundId: string) =>
  db.deleteFrom("saml_logout_rounds").where("id", "=", roundId).execute();
