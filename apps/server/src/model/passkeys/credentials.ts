import type { Passkey } from "@kpi-id/contracts";
import { type Selectable, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import type { WebauthnCredentialsTable } from "../../platform/db/schema-passkeys.ts";
import { authenticatorName } from "./authenticator-names.ts";

export type StoredPasskey = Selectable<WebauthnCredentialsTable>;

export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  aaguid: string;
  name: string;
}

/** Stores a verified new passkey; false when this credential is already stored (for anyone). */
export async function addPasskey(db: Db, passkey: NewPasskey, now: Date): Promise<string | undefined> {
  const row = await db
    .insertInto("webauthn_credentials")
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: Buffer.from(passkey.publicKey),
      sign_count: passkey.signCount,
      transports: passkey.transports,
      backup_eligible: passkey.backupEligible,
      backed_up: passkey.backedUp,
      aaguid: passkey.aaguid,
      name: passkey.name,
      created_at: now,
    })
    .onConflict((oc) => oc.column("credential_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<StoredPasskey | undefined> {
  return db.selectFrom("webauthn_credentials").selectAll().where("credential_id", "=", credentialId).executeTakeFirst();
}

/** Whether the person has a passkey at all (the sign-in screen then offers it for a step-up). */
/** Whether the person has a passkey, as a column of another area's statement (one round trip). */
export function passkeyExists(userId: string) {
  return sql<boolean>`exists (select 1 from webauthn_credentials where user_id = ${userId})`;
}

export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom("webauthn_credentials").select("id").where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}

/** How many passkeys the person has (the console's person screen: what a second-factor reset removes). */
export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("webauthn_credentials")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The person's credential ids (to keep the browser from registering the same authenticator twice). */
export async function credentialIdsOf(db: Db, userId: string): Promise<{ id: string; transports: string[] }[]> {
  const rows = await db
    .selectFrom("webauthn_credentials")
    .select(["credential_id", "transports"])
    .where("user_id", "=", userId)
    .execute();
  return rows.map((row) => ({ id: row.credential_id, transports: row.transports }));
}

/**
 * Records a use: the new sign count, backup state and time. The count must still be below the new one
 * (or both zero, for authenticators without a counter): two racing uses of one answer cannot both pass.
 */
export async function recordPasskeyUse(
  db: Db,
  passkey: StoredPasskey,
  use: { signCount: number; backedUp: boolean },
  now: Date,
): Promise<boolean> {
  const updated = await db
    .updateTable("webauthn_credentials")
    .set({ sign_count: use.signCount, backed_up: use.backedUp, last_used_at: now })
    .where("id", "=", passkey.id)
    .where((eb) => (use.signCount === 0 ? eb("sign_count", "=", "0") : eb("sign_count", "<", String(use.signCount))))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function listPasskeys(db: Db, userId: string): Promise<Passkey[]> {
  const rows = await db
    .selectFrom("webauthn_credentials")
    .select(["id", "name", "aaguid", "backed_up", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    authenticator: authenticatorName(row.aaguid),
    synced: row.backed_up,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  }));
}

/** The person's passkeys as "download my data" shows them: synced means the authenticator may back it up. */
export async function passkeysForExport(db: Db, userId: string) {
  const rows = await db
    .selectFrom("webauthn_credentials")
    .select(["name", "created_at", "last_used_at", "backup_eligible"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    synced: row.backup_eligible,
  }));
}

/** The passkey's name, when it is the person's and it was renamed. */
export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<boolean> {
  const updated = await db
    .updateTable("webauthn_credentials")
    .set({ name })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function removePasskey(db: Db, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom("webauthn_credentials")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/** Every passkey of the person (the operator's `user reset-mfa`); how many went. */
export async function removeAllPasskeys(db: Db, userId: string): Promise<number> {
  const deleted = await db.deleteFrom("webauthn_credentials").where("user_id", "=", userId).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
