import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;

/** The column migration 0490 added to applications (issue 56). */
export interface CommunityApplicationColumns {
  /** Registered on the developers' page: never first-party, every protocol asks the person first. */
  community: ColumnType<boolean, boolean | undefined, boolean>;
}

/** What a person allowed a community application to receive through the ticket exchange (migration 0490). */
export interface TicketConsentsTable {
  user_id: string;
  application_id: string;
  /** The kinds of ticket data agreed to (contracts' ticketConsentData). */
  data: ColumnType<string[], string[], string[]>;
  consented_at: Timestamp;
}

/** A sign-in link waiting for the person's answer on the consent screen (migration 0490). */
export interface TicketConsentRequestsTable {
  id: Generated<string>;
  user_id: string;
  application_id: string;
  state: string | null;
  redirect_uri: string | null;
  callback_url: string;
  /** The kinds of ticket data its screen named (migration 0560; contracts' ticketConsentData). */
  data: ColumnType<string[], string[] | undefined, string[]>;
  /** Where the browser continues after "allow" instead of a ticket (migration 0590: a CAS login). */
  continue_path: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
}

export interface ConsentTables {
  ticket_consents: TicketConsentsTable;
  ticket_consent_requests: TicketConsentRequestsTable;
}
