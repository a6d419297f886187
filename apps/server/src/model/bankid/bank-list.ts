import type { Db } from "../../platform/db/schema.ts";

/** Where the last good list is kept; the bank's shape is sign-in/bankid/client.ts's, stored as it came. */
export interface StoredBankList<Bank> {
  save(list: { banks: Bank[]; fetchedAt: Date }): Promise<void>;
  load(): Promise<{ banks: Bank[]; fetchedAt: Date } | undefined>;
}

// The last good bank list in the database (migration 0520), shared by the instances: NBU's /api/banks is
// called at every sign-in (memberId check), so without it an outage of that one endpoint stops them all.

function banksOf<Bank>(value: unknown): Bank[] {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? (parsed as Bank[]) : [];
}

export function bankListStore<Bank>(db: Db): StoredBankList<Bank> {
  return {
    async save({ banks, fetchedAt }) {
      await db
        .insertInto("bankid_bank_list")
        .values({ banks: JSON.stringify(banks), fetched_at: fetchedAt })
        .onConflict((conflict) =>
          conflict.column("id").doUpdateSet({ banks: JSON.stringify(banks), fetched_at: fetchedAt }),
        )
        .execute();
    },
    async load() {
      const row = await db.selectFrom("bankid_bank_list").select(["banks", "fetched_at"]).executeTakeFirst();
      return row ? { banks: banksOf<Bank>(row.banks), fetchedAt: new Date(row.fetched_at) } : undefined;
    },
  };
}
