import type { ColumnType } from "kysely";

/** A kind of identity document a bank reports (research/bankid-nbu.md §5). */
export const identityDocumentKinds = ["passport", "idpassport", "zpassport"] as const;
export type IdentityDocumentKind = (typeof identityDocumentKinds)[number];

/** A person's identity document (migration 0440): BankID matches by it when the bank sends no tax id. */
export interface IdentityDocumentsTable {
  user_id: string;
  kind: IdentityDocumentKind;
  /** Upper case without spaces; '' for the ID card, which has no series. */
  series: ColumnType<string, string | undefined, string>;
  number: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The last bank list NBU's node answered (migration 0520): one row, used when the node's list fails. */
export interface BankIdBankListTable {
  id: ColumnType<number, number | undefined, never>;
  /** JSON text of client.ts's Bank[] (written with JSON.stringify; read back as parsed JSON). */
  banks: ColumnType<unknown, string, string>;
  fetched_at: ColumnType<Date, Date | string, Date | string>;
}

export interface BankIdTables {
  identity_documents: IdentityDocumentsTable;
  bankid_bank_list: BankIdBankListTable;
}
