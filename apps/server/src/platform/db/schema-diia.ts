import type { ColumnType } from "kysely";
import type { BankIdTables } from "./schema-bankid.ts";

/** The last good CRL of each DIIA_CRLS source (migration 0550; sign-in/diia/crypto/crl-persistence.ts). */
export interface DiiaRevocationListsTable {
  source: string;
  der: Uint8Array;
  this_update: ColumnType<Date, Date | string, Date | string>;
  next_update: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  fetched_at: ColumnType<Date, Date | string, Date | string>;
}

/** The sign-in methods' own tables: BankID's and Diia's. */
export interface SignInTables extends BankIdTables {
  diia_revocation_lists: DiiaRevocationListsTable;
}
