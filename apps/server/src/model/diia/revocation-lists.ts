import type { Db } from "../../platform/db/schema.ts";

/** What the table keeps of a verified CRL besides its bytes (sign-in/diia/crypto/crl.ts's VerifiedCrl has it). */
interface CrlValidity {
  thisUpdate: number;
  nextUpdate: number | undefined;
}

/** Where the last good CRL of each source is kept, so every instance (and `doctor`) sees the same one. */
export interface CrlPersistence {
  save(source: string, der: Buffer, crl: CrlValidity, fetchedAt: Date): Promise<void>;
  loadAll(): Promise<{ source: string; der: Buffer }[]>;
}

/** The `diia_revocation_lists` table; a newer list (by thisUpdate) replaces an older one, never the reverse. */
export function databaseCrlPersistence(db: Db): CrlPersistence {
  return {
    async save(source, der, crl, fetchedAt) {
      const row = {
        source,
        der,
        this_update: new Date(crl.thisUpdate),
        next_update: crl.nextUpdate === undefined ? null : new Date(crl.nextUpdate),
        fetched_at: fetchedAt,
      };
      await db
        .insertInto("diia_revocation_lists")
        .values(row)
        .onConflict((conflict) =>
          conflict
            .column("source")
            .doUpdateSet({ der, this_update: row.this_update, next_update: row.next_update, fetched_at: fetchedAt })
            .whereRef("diia_revocation_lists.this_update", "<=", "excluded.this_update"),
        )
        .execute();
    },
    async loadAll() {
      const rows = await db.selectFrom("diia_revocation_lists").select(["source", "der"]).execute();
      return rows.map((row) => ({ source: row.source, der: Buffer.from(row.der) }));
    },
  };
}

/** Each configured source whose stored list is missing or past its nextUpdate, with that moment. */
export async function staleRevocationLists(
  db: Db,
  sources: string[],
  now: Date,
): Promise<{ source: string; nextUpdate: Date | undefined }[]> {
  if (sources.length === 0) return [];
  const rows = await db
    .selectFrom("diia_revocation_lists")
    .select(["source", "next_update"])
    .where("source", "in", sources)
    .execute();
  const nextUpdateOf = new Map(rows.map((row) => [row.source, row.next_update ?? undefined]));
  return sources
    .filter((source) => {
      const nextUpdate = nextUpdateOf.get(source);
      return !nextUpdateOf.has(source) || nextUpdate === undefined || now >= nextUpdate;
    })
    .map((source) => ({ source, nextUpdate: nextUpdateOf.get(source) }));
}
