import { createHmac } from "node:crypto";
import { sameBytes } from "../../platform/crypto/tokens.ts";
import type { Db } from "../../platform/db/schema.ts";

/**
 * A session with no accounting for this long is forgotten by the ten-minute clean-up: its Stop was lost, or its
 * controller sends no interim updates (docs/eduroam.md asks for them every 10–15 minutes).
 */
export const wifiSessionIdleHours = 12;

/** What a controller's Accounting-Request says, as FreeRADIUS passes it on (protocols/radius/accounting.ts). */
export interface AccountingFacts {
  status: "start" | "interim" | "stop" | "controller_restarted" | undefined;
  /** Operator-NAS-Identifier: FreeRADIUS's name for the controller (its clients.conf shortname, RFC 8559). */
  controller?: string;
  acctSessionId?: string;
  /** The Class our Access-Accept carried (wifiSessionClass), which the controller sends back unchanged. */
  sessionClass?: string;
  userName?: string;
  callingStation?: string;
  nasIpAddress?: string;
  nasIdentifier?: string;
}

export type AccountingOutcome = "recorded" | "ended" | "not_ours";

/** One open session, as a Disconnect-Request names it (RFC 5176 §3: the NAS's and the session's identification). */
export interface WifiSession {
  id: string;
  userId: string;
  passwordId: string;
  controller: string;
  acctSessionId: string;
  userName: string | null;
  callingStation: string | null;
  nasIpAddress: string | null;
  nasIdentifier: string | null;
  startedAt: Date;
}

const classPrefix = "kpi-id:";
const classTag = (deviceKey: string, useId: string) =>
  createHmac("sha256", deviceKey).update(`wifi-session-class\0${useId}`, "utf8").digest("base64url").slice(0, 22);

/**
 * RFC 2865's Class for an accepted sign-in: the controller sends it back in every Accounting-Request of the session,
 * so accounting finds the person and password without the inner identity ever reaching the controller. It names
 * the recorded use (a new one at each authentication, so it links nothing across sessions) with a keyed tag: a
 * controller cannot make up sessions for someone else.
 */
export function wifiSessionClass(deviceKey: string, useId: string): string {
  return `${classPrefix}${useId}.${classTag(deviceKey, useId)}`;
}

/** The use a Class names, when it is ours and its tag holds. */
export function useOfSessionClass(deviceKey: string, value: string | undefined): string | undefined {
  const match = value?.startsWith(classPrefix)
    ? /^(\d{1,18})\.([\w-]{22})$/.exec(value.slice(classPrefix.length))
    : null;
  if (!match?.[1] || !match[2]) return undefined;
  return sameBytes(Buffer.from(match[2]), Buffer.from(classTag(deviceKey, match[1]))) ? match[1] : undefined;
}

/**
 * Start and Interim-Update keep the session (created from its Class when it is new to us: a lost Start is made
 * good by the next update), Stop ends it, and Accounting-On/Off (the controller restarted) ends all of its sessions.
 */
export async function recordAccounting(
  db: Db,
  deviceKey: string,
  facts: AccountingFacts,
  now: Date,
): Promise<AccountingOutcome> {
  const { controller, acctSessionId } = facts;
  if (controller === undefined) return "not_ours";
  if (facts.status === "controller_restarted") {
    await db.deleteFrom("wifi_sessions").where("controller", "=", controller).execute();
    return "ended";
  }
  if (acctSessionId === undefined || facts.status === undefined) return "not_ours";
  if (facts.status === "stop") {
    const ended = await db
      .deleteFrom("wifi_sessions")
      .where("controller", "=", controller)
      .where("acct_session_id", "=", acctSessionId)
      .executeTakeFirst();
    return Number(ended.numDeletedRows) > 0 ? "ended" : "not_ours";
  }
  const useId = useOfSessionClass(deviceKey, facts.sessionClass);
  const kept = await db
    .updateTable("wifi_sessions")
    .set({ updated_at: now })
    .where("controller", "=", controller)
    .where("acct_session_id", "=", acctSessionId)
    .executeTakeFirst();
  if (Number(kept.numUpdatedRows) > 0) return "recorded";
  if (useId === undefined) return "not_ours";
  const inserted = await db
    .insertInto("wifi_sessions")
    .columns([
      "user_id",
      "password_id",
      "controller",
      "acct_session_id",
      "user_name",
      "calling_station",
      "nas_ip_address",
      "nas_identifier",
      "started_at",
      "updated_at",
    ])
    .expression((eb) =>
      eb
        .selectFrom("wifi_uses")
        .select((use) => [
          "user_id",
          "password_id",
          use.val(controller).as("controller"),
          use.val(acctSessionId).as("acct_session_id"),
          use.val(facts.userName ?? null).as("user_name"),
          use.val(facts.callingStation ?? null).as("calling_station"),
          use.val(facts.nasIpAddress ?? null).as("nas_ip_address"),
          use.val(facts.nasIdentifier ?? null).as("nas_identifier"),
          use.val(now).as("started_at"),
          use.val(now).as("updated_at"),
        ])
        .where("id", "=", useId),
    )
    .onConflict((conflict) => conflict.columns(["controller", "acct_session_id"]).doUpdateSet({ updated_at: now }))
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? "recorded" : "not_ours";
}

/** The open sessions of a person, or of one of their passwords: what to disconnect, and the account's "where used". */
export async function openWifiSessions(db: Db, who: { userId: string; passwordId?: string }): Promise<WifiSession[]> {
  let query = db.selectFrom("wifi_sessions").selectAll().where("user_id", "=", who.userId);
  if (who.passwordId !== undefined) query = query.where("password_id", "=", who.passwordId);
  const rows = await query.orderBy("started_at", "desc").execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    passwordId: row.password_id,
    controller: row.controller,
    acctSessionId: row.acct_session_id,
    userName: row.user_name,
    callingStation: row.calling_station,
    nasIpAddress: row.nas_ip_address,
    nasIdentifier: row.nas_identifier,
    startedAt: row.started_at,
  }));
}

/** The controller acknowledged a disconnect: the session is over even if its Stop never comes. */
export async function forgetWifiSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("wifi_sessions").where("id", "=", id).execute();
}

/** The clean-up: sessions with no accounting for wifiSessionIdleHours. */
export async function deleteIdleWifiSessions(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - wifiSessionIdleHours * 60 * 60 * 1000);
  const result = await db.deleteFrom("wifi_sessions").where("updated_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
