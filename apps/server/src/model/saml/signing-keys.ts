import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

/** A SAML signing key as stored: its private JWK encrypted with SESSION_SECRET's ring. */
export interface StoredSamlKey {
  kid: string;
  encryptedJwk: string;
  certificate: string;
  now: Date;
  activatesAt: Date;
}

export async function insertSamlKey(db: Db, key: StoredSamlKey): Promise<void> {
  await db
    .insertInto("saml_signing_keys")
    .values({
      kid: key.kid,
      encrypted_jwk: key.encryptedJwk,
      certificate: key.certificate,
      created_at: key.now,
      activates_at: key.activatesAt,
    })
    .execute();
}

export function anyPublishedSamlKey(db: Db) {
  return db.selectFrom("saml_signing_keys").select("kid").where("retired_at", "is", null).executeTakeFirst();
}

/** Instances starting together take this lock (in a transaction), so exactly one makes the first key. */
async function lockSamlKeys(tx: Db): Promise<void> {
  await sql`lock table saml_signing_keys in share row exclusive mode`.execute(tx);
}

/**
 * First start: stores the key `make` answers when no key is published yet. Instances starting together take a
 * table lock, so exactly one is made (`make` runs only in the instance that stores it).
 */
export async function ensureFirstSamlKey(db: Db, make: () => Promise<StoredSamlKey>): Promise<void> {
  if (await anyPublishedSamlKey(db)) return;
  await db.transaction().execute(async (tx) => {
    await lockSamlKeys(tx);
    if (!(await anyPublishedSamlKey(tx))) await insertSamlKey(tx, await make());
  });
}

export async function activateSamlKey(db: Db, kid: string, now: Date): Promise<void> {
  await db.updateTable("saml_signing_keys").set({ activates_at: now }).where("kid", "=", kid).execute();
}

/** Takes a key out of the metadata; false when there was no such published key. */
export async function retireStoredSamlKey(db: Db, kid: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("saml_signing_keys")
    .set({ retired_at: now })
    .where("kid", "=", kid)
    .where("retired_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The published keys, the latest activation (then the newest) first. */
export function publishedSamlKeys(db: Db) {
  return db
    .selectFrom("saml_signing_keys")
    .selectAll()
    .where("retired_at", "is", null)
    .orderBy("activates_at", "desc")
    .orderBy("created_at", "desc")
    .execute();
}
