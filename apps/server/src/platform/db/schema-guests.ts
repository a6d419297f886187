import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A sponsored guest (migration 0730): the person, their sponsor, their end and why they are here. */
export interface GuestsTable {
  user_id: string;
  sponsor_id: string | null;
  handed_over_at: NullableTimestamp;
  reason: string;
  ends_at: Timestamp;
  created_at: Timestamp;
  reminded_days: ColumnType<number[], number[] | undefined, number[]>;
  ended_at: NullableTimestamp;
}

export interface GuestUnitsTable {
  user_id: string;
  unit_id: string;
}

export interface GuestApplicationsTable {
  user_id: string;
  application_id: string;
}

/** A guest's invitation link (migration 0730): its token's hash, the address it is good for, once. */
export interface GuestInvitationsTable {
  user_id: string;
  email: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface GuestTables {
  guests: GuestsTable;
  guest_units: GuestUnitsTable;
  guest_applications: GuestApplicationsTable;
  guest_invitations: GuestInvitationsTable;
}
