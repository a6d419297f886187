import type { AuthMethod } from "@kpi-id/contracts";
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type CasServiceMatch = "exact" | "prefix";
export type CasTicketKind = "ST" | "PT" | "PGT";

/** An application's CAS service address (migration 0590). */
export interface CasServicesTable {
  url: string;
  application_id: string;
  match: CasServiceMatch;
  attributes: ColumnType<string[], string[] | undefined, string[]>;
  /** KPI ID's attribute name → the name released (migration 0665), written as JSON text. */
  renames: ColumnType<Record<string, unknown>, string | undefined, string>;
  single_logout: ColumnType<boolean, boolean | undefined, boolean>;
  proxy: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

/** A service, proxy or proxy-granting ticket, by its hash (migration 0590). */
export interface CasTicketsTable {
  ticket_hash: Uint8Array;
  kind: CasTicketKind;
  application_id: string;
  service: string;
  user_id: string;
  session_id: string | null;
  auth_method: AuthMethod;
  amr: ColumnType<string[], string[] | undefined, string[]>;
  authenticated_at: RequiredTimestamp;
  from_new_login: ColumnType<boolean, boolean | undefined, boolean>;
  proxies: ColumnType<string[], string[] | undefined, string[]>;
  created_at: RequiredTimestamp;
  expires_at: RequiredTimestamp;
  consumed_at: NullableTimestamp;
}

/** A /cas/login waiting on the person (migration 0590). */
export interface CasPendingLoginsTable {
  id: string;
  application_id: string;
  service: string;
  renew: ColumnType<boolean, boolean | undefined, boolean>;
  post: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: RequiredTimestamp;
  expires_at: RequiredTimestamp;
}

/** A validated ticket of a service that asked for single logout (migration 0590). */
export interface CasSignInsTable {
  id: Generated<string>;
  session_id: string;
  user_id: string;
  application_id: string;
  service: string;
  spent_ticket: string;
  created_at: RequiredTimestamp;
}

export interface CasTables {
  cas_services: CasServicesTable;
  cas_tickets: CasTicketsTable;
  cas_pending_logins: CasPendingLoginsTable;
  cas_sign_ins: CasSignInsTable;
}
