import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The column migration 0540 added to applications: set, the application is a site behind nginx. */
export interface ForwardAuthApplicationColumns {
  /** The person headers nginx receives (forward-auth/headers.ts), or null: not a site behind nginx. */
  forward_auth_headers: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
}

/** The column migration 0540 added to tickets: the KPI ID session the ticket was issued from. */
export interface TicketSessionColumns {
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A protected host's cookie (migration 0540): its hash, bound to one application and one KPI ID session. */
export interface ForwardAuthSessionsTable {
  token_hash: Uint8Array;
  application_id: string;
  session_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface ForwardAuthTables {
  forward_auth_sessions: ForwardAuthSessionsTable;
}
