import { sql } from "kysely";
import type { Db } from "./schema.ts";

/**
 * Runs `work` in one transaction if no other instance holds the transaction-scoped advisory lock `key` right now;
 * answers undefined when one does. The lock is released by commit or rollback, and by PostgreSQL itself if this
 * instance dies mid-way, so a crashed instance never blocks the others.
 */
export function inTransactionUnderLock<T>(db: Db, key: number, work: (trx: Db) => Promise<T>): Promise<T | undefined> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${key}) as locked`.execute(trx);
    if (!rows[0]?.locked) return undefined;
    return work(trx);
  });
}
