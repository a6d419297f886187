import type { ProcessingStatus } from "@kpi-id/contracts";
import type { ColumnType, Generated } from "kysely";
import type { BankIdTables } from "./schema-bankid.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A Diia sign-in's deep link and what came of it (sign-in/diia). */
export interface DiiaRequestsTable {
  id: Generated<string>;
  hashed_request_id: string;
  deep_link: string;
  status: ColumnType<ProcessingStatus, ProcessingStatus | undefined, ProcessingStatus>;
  user_id: string | null;
  failure_code: string | null;
  grant_hash: Uint8Array | null;
  /** SHA-256 of the binding cookie of the browser that asked for the deep link. */
  browser_hash: Uint8Array | null;
  /** SHA-256 of the address of the caller that asked for the deep link (diia/browser-binding.ts). */
  caller_address_hash: Uint8Array | null;
  /** Asked for by a server-side caller (no Origin, no Sec-Fetch-Site, no binding cookie). */
  server_side: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  finished_at: NullableTimestamp;
}

/** The last good CRL of each DIIA_CRLS source (migration 0550; model/diia/revocation-lists.ts). */
export interface DiiaRevocationListsTable {
  source: string;
  der: Uint8Array;
  this_update: ColumnType<Date, Date | string, Date | string>;
  next_update: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  fetched_at: ColumnType<Date, Date | string, Date | string>;
}

/** A watched Diia signer's certificate and the last good OCSP answer about it (migration 0650; model/diia/ocsp-answers.ts). */
export interface DiiaOcspAnswersTable {
  certificate_key: string;
  certificate: Uint8Array;
  last_seen_at: RequiredTimestamp;
  responder: string | null;
  answer: Uint8Array | null;
  status: string | null;
  this_update: NullableTimestamp;
  next_update: NullableTimestamp;
  fetched_at: NullableTimestamp;
}

/** The sign-in methods' own tables: BankID's and Diia's. */
export interface SignInTables extends BankIdTables {
  diia_requests: DiiaRequestsTable;
  diia_revocation_lists: DiiaRevocationListsTable;
  diia_ocsp_answers: DiiaOcspAnswersTable;
}
