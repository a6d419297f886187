import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A person's network password for one device (migration 0610): only its keyed hash and its sealed NT hash. */
export interface WifiPasswordsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  device: string;
  secret_hash: string;
  nt_hash_sealed: string;
  created_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One accepted Wi-Fi sign-in (migration 0610). */
export interface WifiUsesTable {
  id: Generated<string>;
  password_id: string;
  user_id: string;
  used_at: Timestamp;
  method: string;
  access_point: string | null;
  nas_identifier: string | null;
  station_hash: string | null;
}

/** Wi-Fi turned off for a person by an operator (migration 0610). */
export interface WifiBlocksTable {
  user_id: string;
  blocked_at: Timestamp;
  blocked_by: string | null;
}

/** An open Wi-Fi session, from the controllers' accounting (migration 0680). */
export interface WifiSessionsTable {
  id: Generated<string>;
  user_id: string;
  password_id: string;
  controller: string;
  acct_session_id: string;
  user_name: string | null;
  calling_station: string | null;
  nas_ip_address: string | null;
  nas_identifier: string | null;
  started_at: Timestamp;
  updated_at: Timestamp;
}

export interface WifiTables {
  wifi_passwords: WifiPasswordsTable;
  wifi_uses: WifiUsesTable;
  wifi_blocks: WifiBlocksTable;
  wifi_sessions: WifiSessionsTable;
}
