import type { Db } from "../../platform/db/schema.ts";

/** When the kept bank list was fetched, if one is kept (`doctor` reports an old one). */
export function bankListFetchedAt(db: Db) {
  return db.selectFrom("bankid_bank_list").select("fetched_at").executeTakeFirst();
}
