import type { AuthMethod, Language } from "@kpi-id/contracts";
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { PeopleTables } from "./people-schema.ts";
import type { CasTables } from "./schema-cas.ts";
import type { CommunityApplicationColumns, ConsentTables } from "./schema-consents.ts";
import type { DeveloperApplicationColumns, DeveloperTables } from "./schema-developers.ts";
import type { SignInTables } from "./schema-diia.ts";
import type { ForwardAuthApplicationColumns, ForwardAuthTables, TicketSessionColumns } from "./schema-forward-auth.ts";
import type { GuestTables } from "./schema-guests.ts";
import type { LdapTables } from "./schema-ldap.ts";
import type { OidcTables } from "./schema-oidc.ts";
import type { PasskeyTables } from "./schema-passkeys.ts";
import type {
  FederatedIdentitiesTable,
  SamlConsentsTable,
  SamlFederationsTable,
  SamlIdentityProvidersTable,
  SamlLogoutParticipantsTable,
  SamlLogoutRoundsTable,
  SamlPendingRequestsTable,
  SamlSeenRequestsTable,
  SamlServiceProvidersTable,
  SamlSessionsTable,
  SamlSigningKeysTable,
  VisitorSeenAssertionsTable,
  VisitorSignInRequestsTable,
} from "./schema-saml.ts";
import type { WifiTables } from "./schema-wifi.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type UserStatus = "active" | "disabled";

export interface UsersTable {
  id: Generated<string>;
  username: string;
  password_hash: string | null;
  full_name: string;
  email: string | null;
  /** The address last proven to belong to the person (migration 0020); see emailVerified(). */
  verified_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** The first successful sign-in (migration 0231): the new-device mail starts after it. */
  first_signed_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  tax_id: string | null;
  student_id: string | null;
  employee_id: string | null;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The operator requires a second factor of this person (migration 0171). */
  require_mfa: ColumnType<boolean, boolean | undefined, boolean>;
  /** The SCIM client's id for the person (migration 0211). */
  scim_external_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a SCIM client deleted the person (migration 0211); the person stays, disabled. */
  scim_deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When the person's personal data was removed (migration 0460, privacy/erase.ts); the row stays nameless. */
  anonymised_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** SCIM attributes kept as the client sent them (scim/user-fields.ts); written as JSON text. */
  scim_attributes: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** The language of the person's last sign-in (migration 0173), for mail sent outside their requests. */
  language: ColumnType<Language | null, Language | null | undefined, Language | null>;
  /** The units the person has a student record or a position in (migration 0760): kept by the database from them. */
  unit_ids: ColumnType<string[], never, never>;
}

export interface ExternalIdentitiesTable {
  provider: "google";
  subject: string;
  user_id: string;
  created_at: Timestamp;
}

export interface ApplicationsTable
  extends DeveloperApplicationColumns,
    CommunityApplicationColumns,
    ForwardAuthApplicationColumns {
  id: Generated<string>;
  name: string;
  title: string;
  description: ColumnType<string, string | undefined, string>;
  // English title and description (migration 0120); empty when not translated
  title_en: ColumnType<string, string | undefined, string>;
  description_en: ColumnType<string, string | undefined, string>;
  callback_url: string;
  // More ticket callbacks a sign-in link may name with redirectUri (migration 0190)
  extra_callback_urls: ColumnType<string[], string[] | undefined, string[]>;
  // Whether ticket data carries TAX_ID (migration 0190; on for applications older than it)
  release_tax_id: ColumnType<boolean, boolean | undefined, boolean>;
  secret_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  // OpenID Connect client settings (migration 0005)
  oidc_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** RFC 8628's device grant allowed (migration 0430). */
  oidc_device_flow: ColumnType<boolean, boolean | undefined, boolean>;
  redirect_uris: ColumnType<string[], string[] | undefined, string[]>;
  post_logout_redirect_uris: ColumnType<string[], string[] | undefined, string[]>;
  allowed_scopes: ColumnType<string[], string[] | undefined, string[]>;
  first_party: ColumnType<boolean, boolean | undefined, boolean>;
  token_endpoint_auth_method: ColumnType<OidcClientAuthMethod, OidcClientAuthMethod | undefined, OidcClientAuthMethod>;
  backchannel_logout_uri: ColumnType<string | null, string | null | undefined, string | null>;
  /** Sign-ins to this application must be multi-factor (migration 0171). */
  require_mfa: ColumnType<boolean, boolean | undefined, boolean>;
  /** The unit the application belongs to (migration 0740); null: the university's central IT. */
  unit_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OidcClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

export interface UserApplicationsTable {
  user_id: string;
  application_id: string;
  granted_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  token_hash: Uint8Array;
  user_id: string;
  auth_method: AuthMethod;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  idle_expires_at: RequiredTimestamp;
  absolute_expires_at: RequiredTimestamp;
  ip: string | null;
  user_agent: string | null;
  /** RFC 8176 `amr` values the sign-in achieved (migration 0170). */
  amr: TextList;
  /** When a multi-factor proof last happened in this session, if ever. */
  strong_at: NullableTimestamp;
}

export interface LoginGrantsTable {
  grant_hash: Uint8Array;
  user_id: string;
  auth_method: AuthMethod;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  consumed_at: NullableTimestamp;
  /** RFC 8176 values proven so far (migration 0171). */
  amr: TextList;
  /** True while the person still owes their second factor: the grant cannot be exchanged yet. */
  second_factor_due: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface TotpFactorsTable {
  user_id: string;
  /** The base32 secret, sealed (crypto/seal.ts). */
  secret_sealed: string;
  confirmed_at: NullableTimestamp;
  /** The last RFC 6238 time step accepted: a code of that step or an earlier one is refused. */
  last_time_step: ColumnType<string, number | undefined, number>;
  created_at: RequiredTimestamp;
}

export interface RecoveryCodesTable {
  code_hash: Uint8Array;
  user_id: string;
  created_at: RequiredTimestamp;
  used_at: NullableTimestamp;
}

export interface TicketsTable extends TicketSessionColumns {
  id: Generated<string>;
  ticket_hash: Uint8Array;
  application_id: string;
  user_id: string;
  auth_method: AuthMethod;
  trace_id: Generated<string>;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  consumed_at: NullableTimestamp;
  /** The session's RFC 8176 values when the ticket was issued (migration 0172). */
  amr: TextList;
}

export interface ThrottleCountersTable {
  key: string;
  failures: ColumnType<number, number | undefined, number>;
  first_failure_at: Timestamp;
  last_failure_at: Timestamp;
  blocked_until: NullableTimestamp;
}

export interface AuditEventsTable {
  id: Generated<string>;
  occurred_at: Timestamp;
  event_type: string;
  result: "success" | "failure";
  auth_method: string | null;
  user_id: string | null;
  application_id: string | null;
  reason: string | null;
  ip: string | null;
  user_agent: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** The operator who acted (migration 0180); null for a person's own action or the CLI. */
  actor_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The unit a unit-scoped console action was taken in (migration 0740). */
  unit_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OperatorRole = "admin" | "helpdesk";
/** A console role held in a unit, reaching it and every unit below it (migration 0740). */
export type UnitRole = "unit_admin" | "unit_helpdesk";

/** Console roles held in a unit (migration 0740); see model/users/unit-roles.ts. */
export interface UnitRolesTable {
  user_id: string;
  unit_id: string;
  role: UnitRole;
  granted_at: Generated<Date>;
}

/** Operators of the console (migration 0180); see admin/roles.ts. */
export interface OperatorRolesTable {
  user_id: string;
  role: OperatorRole;
  granted_at: Generated<Date>;
}

/** One-time password reset tokens (migration 0165); see model/recovery/tokens.ts. */
export interface PasswordResetTokensTable {
  token_hash: Uint8Array;
  user_id: string;
  via: "email" | "diia" | "bankid";
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  consumed_at: NullableTimestamp;
}

type TextList = ColumnType<string[], string[] | undefined, string[]>;

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface Database
  extends PeopleTables,
    PasskeyTables,
    SignInTables,
    DeveloperTables,
    ConsentTables,
    ForwardAuthTables,
    CasTables,
    WifiTables,
    LdapTables,
    GuestTables,
    OidcTables {
  users: UsersTable;
  external_identities: ExternalIdentitiesTable;
  applications: ApplicationsTable;
  user_applications: UserApplicationsTable;
  sessions: SessionsTable;
  login_grants: LoginGrantsTable;
  tickets: TicketsTable;
  throttle_counters: ThrottleCountersTable;
  audit_events: AuditEventsTable;
  schema_migrations: SchemaMigrationsTable;
  saml_signing_keys: SamlSigningKeysTable;
  saml_service_providers: SamlServiceProvidersTable;
  saml_seen_requests: SamlSeenRequestsTable;
  saml_pending_requests: SamlPendingRequestsTable;
  saml_sessions: SamlSessionsTable;
  saml_logout_rounds: SamlLogoutRoundsTable;
  saml_logout_participants: SamlLogoutParticipantsTable;
  saml_federations: SamlFederationsTable;
  saml_identity_providers: SamlIdentityProvidersTable;
  federated_identities: FederatedIdentitiesTable;
  visitor_sign_in_requests: VisitorSignInRequestsTable;
  visitor_seen_assertions: VisitorSeenAssertionsTable;
  saml_consents: SamlConsentsTable;
  password_reset_tokens: PasswordResetTokensTable;
  operator_roles: OperatorRolesTable;
  unit_roles: UnitRolesTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type NewApplication = Insertable<ApplicationsTable>;

/** The query builder over this schema, as every query module takes it. */
export type Db = Kysely<Database>;
