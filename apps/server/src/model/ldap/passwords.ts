import { ldapPasswordLimit } from "@kpi-id/contracts";
import { sql } from "kysely";
import { keysOf, newestKey, type SecretRing } from "../../platform/crypto/key-ring.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { lockPerson } from "../users/queries.ts";
import { generateNetworkPassword, networkPasswordHash, ntHash } from "../wifi/secrets.ts";

// Application passwords are made and kept exactly as Wi-Fi's network passwords are (model/wifi/secrets.ts):
// about 99 random bits, stored as a keyed HMAC under SESSION_SECRET's ring (no dictionary for argon2 to slow
// down, one index lookup per bind, nothing checkable offline without the key). `storedApplicationPassword` and
// `applicationPasswordHashes` are the only two places that choose this.

/** How many of a password's latest uses the account page shows. */
const usesShown = 5;

/** What an application password is stored as: its keyed hash under the ring's newest key. */
export function storedApplicationPassword(ring: SecretRing, password: string): string {
  return networkPasswordHash(newestKey(ring), ntHash(password));
}

/**
 * What a presented password is looked up by: its keyed hash under each key of the ring, the newest first (a row
 * kept under an older key still matches, and is made again under the newest: binds.ts). Only today's form: unlike
 * Wi-Fi's (networkPasswordHashes), no application password was ever stored in the first form.
 */
export function applicationPasswordHashes(ring: SecretRing, password: string): string[] {
  const nt = ntHash(password);
  return keysOf(ring).map((key) => networkPasswordHash(key, nt));
}

export interface ApplicationPasswordUse {
  usedAt: Date;
  client: string | null;
  peer: string | null;
}

export interface ApplicationPassword {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** The client it is tied to (its title), or null: any. */
  clientTitle: string | null;
  uses: ApplicationPasswordUse[];
}

/**
 * The person's application passwords, newest first, each with its latest `usesPer` uses (the account page's five;
 * the data download asks for all that are kept); never a secret.
 */
export async function listApplicationPasswords(
  db: Db,
  userId: string,
  usesPer: number = usesShown,
): Promise<ApplicationPassword[]> {
  const rows = await db
    .selectFrom("ldap_passwords")
    .leftJoin("ldap_clients", "ldap_clients.id", "ldap_passwords.client_id")
    .select([
      "ldap_passwords.id",
      "ldap_passwords.name",
      "ldap_passwords.created_at",
      "ldap_passwords.last_used_at",
      "ldap_clients.title as client_title",
    ])
    .where("ldap_passwords.user_id", "=", userId)
    .orderBy("ldap_passwords.created_at", "desc")
    .execute();
  if (rows.length === 0) return [];
  const uses = await db
    .selectFrom("ldap_uses")
    .leftJoin("ldap_clients", "ldap_clients.id", "ldap_uses.client_id")
    .select(["ldap_uses.password_id", "ldap_uses.used_at", "ldap_uses.peer", "ldap_clients.title"])
    .where("ldap_uses.user_id", "=", userId)
    .where(
      sql<boolean>`ldap_uses.id in (select id from (select id, row_number() over (partition by password_id
        order by used_at desc) as n from ldap_uses where user_id = ${userId}) ranked where n <= ${usesPer})`,
    )
    .orderBy("ldap_uses.used_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    clientTitle: row.client_title,
    uses: uses
      .filter((use) => use.password_id === row.id)
      .map((use) => ({ usedAt: use.used_at, client: use.title, peer: use.peer })),
  }));
}

export interface CreatedApplicationPassword {
  id: string;
  name: string;
  /** Shown once: only its keyed hash is kept. */
  password: string;
}

/**
 * A new application password, through any client or only through `clientId` (the caller checked the person may
 * bind through it). The limit is counted under a lock on the person's row, so two at once cannot pass it.
 */
export async function createApplicationPassword(
  db: Db,
  ring: SecretRing,
  userId: string,
  wanted: { name: string; clientId?: string | null },
  now: Date,
): Promise<CreatedApplicationPassword> {
  const { name } = wanted;
  const password = generateNetworkPassword();
  return db.transaction().execute(async (tx) => {
    await lockPerson(tx, userId);
    const held = await tx
      .selectFrom("ldap_passwords")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(held.count) >= ldapPasswordLimit) throw new AppError("ldap.limit_reached");
    const row = await tx
      .insertInto("ldap_passwords")
      .values({
        user_id: userId,
        client_id: wanted.clientId ?? null,
        name,
        secret_hash: storedApplicationPassword(ring, password),
        created_at: now,
      })
      .returning(["id"])
      .executeTakeFirstOrThrow();
    return { id: row.id, name, password };
  });
}

/** Revokes one: the next bind with it is refused (its uses go with it). Another person's: not found. */
export async function revokeApplicationPassword(db: Db, userId: string, id: string): Promise<void> {
  const result = await db
    .deleteFrom("ldap_passwords")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError("ldap.password_not_found");
}
