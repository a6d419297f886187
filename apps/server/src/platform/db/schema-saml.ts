import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type TextList = ColumnType<string[], string[] | undefined, string[]>;
type Flag = ColumnType<boolean, boolean | undefined, boolean>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The SAML identity provider's tables (migrations 0110, 0111, 0220). */
/** SAML 2.0 identity provider (migration 0110). */
export interface SamlSigningKeysTable {
  kid: string;
  encrypted_jwk: string;
  certificate: string;
  created_at: Timestamp;
  activates_at: Timestamp;
  retired_at: NullableTimestamp;
}

export interface SamlServiceProvidersTable {
  entity_id: string;
  metadata_xml: string;
  source: ColumnType<string, string | undefined, string>;
  display_name: ColumnType<string, string | undefined, string>;
  released_attributes: TextList;
  entity_categories: TextList;
  application_id: ColumnType<string | null, string | null | undefined, string | null>;
  first_party: Flag;
  encrypt_assertions: Flag;
  sign_response: Flag;
  valid_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SamlSeenRequestsTable {
  sp_entity_id: string;
  request_id: string;
  expires_at: RequiredTimestamp;
}

export interface SamlPendingRequestsTable {
  id: string;
  sp_entity_id: string;
  request_id: string;
  acs_url: string;
  relay_state: string | null;
  force_authn: Flag;
  mfa_requested: Flag;
  declined: Flag;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
}

export interface SamlConsentsTable {
  user_id: string;
  sp_entity_id: string;
  attributes: TextList;
  created_at: Timestamp;
}

export interface SamlSessionsTable {
  session_id: string;
  sp_entity_id: string;
  name_id: string;
  session_index: string;
  created_at: Timestamp;
}

export interface SamlLogoutRoundsTable {
  id: string;
  initiator_sp: string | null;
  initiator_request_id: string | null;
  initiator_relay_state: string | null;
  return_to: string | null;
  awaiting_request_id: string | null;
  expires_at: RequiredTimestamp;
}

export interface SamlLogoutParticipantsTable {
  round_id: string;
  sp_entity_id: string;
  name_id: string;
  session_index: string;
}

export interface SamlFederationsTable {
  name: string;
  source: string;
  certificate: string;
  entity_categories: TextList;
  valid_until: NullableTimestamp;
  refreshed_at: NullableTimestamp;
  last_error: string | null;
}

/** An identity provider a federation's aggregate lists (migration 0750): a home institution of visitors. */
export interface SamlIdentityProvidersTable {
  entity_id: string;
  source: string;
  display_name_en: string;
  display_name_uk: string;
  scopes: TextList;
  metadata_xml: string;
  valid_until: NullableTimestamp;
  updated_at: Timestamp;
}

/** A person's identity at their home institution (migration 0750). */
export interface FederatedIdentitiesTable {
  id: ColumnType<string, string | undefined, never>;
  user_id: string;
  institution: string;
  subject_kind: "subject-id" | "pairwise-id" | "eppn";
  subject: string;
  name_id: ColumnType<string | null, string | null | undefined, string | null>;
  scoped_affiliations: TextList;
  assurance: TextList;
  visitor: Flag;
  created_at: RequiredTimestamp;
  last_seen_at: RequiredTimestamp;
}

/** A sign-in sent to a home institution, and its answer until the person agrees (migration 0750). */
export interface VisitorSignInRequestsTable {
  id: string;
  browser_hash: string;
  institution: string;
  purpose: "sign-in" | "link";
  user_id: string | null;
  answer: ColumnType<unknown, string | null | undefined, string | null>;
  expires_at: RequiredTimestamp;
}

export interface VisitorSeenAssertionsTable {
  institution: string;
  assertion_id: string;
  expires_at: RequiredTimestamp;
}
