import { sql } from "kysely";
import type { SecretRing } from "../../platform/crypto/key-ring.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockPerson } from "../users/queries.ts";
import { generateDeviceTag, generateNetworkPassword, ntHash, storedNetworkPassword } from "./secrets.ts";

/** Most network passwords one person holds at once: one per device. */
export const networkPasswordLimit = 10;

/** How many of a password's latest uses the account page and the console show. */
const usesShown = 5;

export interface NetworkPasswordUse {
  usedAt: Date;
  method: string;
  accessPoint: string | null;
  nasIdentifier: string | null;
}

export interface NetworkPassword {
  id: string;
  name: string;
  /** The PEAP identity's device part: username+device@realm. */
  device: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  uses: NetworkPasswordUse[];
  /** Where it is connected now (model/wifi/sessions.ts). */
  sessions: { controller: string; since: Date }[];
}

/** The person's network passwords, newest first, each with its latest uses; never a secret. */
export async function listNetworkPasswords(db: Db, userId: string): Promise<NetworkPassword[]> {
  const rows = await db
    .selectFrom("wifi_passwords")
    .select(["id", "name", "device", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  if (rows.length === 0) return [];
  const uses = await db
    .selectFrom("wifi_uses")
    .select(["password_id", "used_at", "method", "access_point", "nas_identifier"])
    .where("user_id", "=", userId)
    .where(
      sql<boolean>`id in (select id from (select id, row_number() over (partition by password_id order by used_at desc) as n
        from wifi_uses where user_id = ${userId}) ranked where n <= ${usesShown})`,
    )
    .orderBy("used_at", "desc")
    .execute();
  const sessions = await db
    .selectFrom("wifi_sessions")
    .select(["password_id", "controller", "started_at"])
    .where("user_id", "=", userId)
    .orderBy("started_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    device: row.device,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    uses: uses
      .filter((use) => use.password_id === row.id)
      .map((use) => ({
        usedAt: use.used_at,
        method: use.method,
        accessPoint: use.access_point,
        nasIdentifier: use.nas_identifier,
      })),
    sessions: sessions
      .filter((session) => session.password_id === row.id)
      .map((session) => ({ controller: session.controller, since: session.started_at })),
  }));
}

export interface CreatedNetworkPassword {
  id: string;
  name: string;
  device: string;
  /** Shown once: only its hash and sealed NT hash are kept. */
  password: string;
}

/**
 * A new network password for one device (the limit counted under a lock on the person's row, so two requests
 * at once cannot pass it). Stored as its keyed hash (TTLS/PAP) and its sealed NT hash (PEAP-MSCHAPv2).
 */
export async function createNetworkPassword(
  db: Db,
  ring: SecretRing,
  userId: string,
  name: string,
  now: Date,
): Promise<CreatedNetworkPassword> {
  const password = generateNetworkPassword();
  return db.transaction().execute(async (tx) => {
    await lockPerson(tx, userId);
    const held = await tx.selectFrom("wifi_passwords").select(["device"]).where("user_id", "=", userId).execute();
    if (held.length >= networkPasswordLimit) throw new AppError("wifi.limit_reached");
    let device = generateDeviceTag();
    while (held.some((row) => row.device === device)) device = generateDeviceTag();
    const row = await tx
      .insertInto("wifi_passwords")
      .values({
        user_id: userId,
        name,
        device,
        ...storedNetworkPassword(ring, ntHash(password)),
        created_at: now,
      })
      .returning(["id"])
      .executeTakeFirstOrThrow();
    return { id: row.id, name, device, password };
  });
}

/** Renames one of the person's network passwords; another person's or a gone one: `wifi.password_not_found`. */
export async function renameNetworkPassword(db: Db, userId: string, id: string, name: string): Promise<void> {
  const result = await db
    .updateTable("wifi_passwords")
    .set({ name })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError("wifi.password_not_found");
}

/** Revokes one: it stops working at the next authentication (its uses go with it). */
export async function revokeNetworkPassword(db: Db, userId: string, id: string): Promise<void> {
  const result = await db
    .deleteFrom("wifi_passwords")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError("wifi.password_not_found");
}

/** Every network password of the person (erasure, an operator's "revoke all"); how many there were. */
export async function revokeAllNetworkPasswords(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("wifi_passwords").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
