import type { ApplicationLifecycle, DeveloperClientType, DeveloperRole } from "@kpi-id/contracts";
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The columns migration 0450 added to applications for the developers' page (issue 39). */
export interface DeveloperApplicationColumns {
  /** testing → in_review → live or rejected; operator-made applications are live. */
  lifecycle: ColumnType<ApplicationLifecycle, ApplicationLifecycle | undefined, ApplicationLifecycle>;
  /** An operator stopped its sign-ins; null when not suspended. */
  suspended_at: NullableTimestamp;
  suspension_reason: ColumnType<string, string | undefined, string>;
  icon_url: ColumnType<string, string | undefined, string>;
  home_page_url: ColumnType<string, string | undefined, string>;
  privacy_policy_url: ColumnType<string, string | undefined, string>;
  /** What kind of application its owner registered (migration 0630, issue 60). */
  client_type: ColumnType<DeveloperClientType, DeveloperClientType | undefined, DeveloperClientType>;
  /** The secret replaced last, still accepted until `previous_secret_ends_at` (migration 0630, issue 60). */
  previous_secret_hash: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_ends_at: NullableTimestamp;
  secret_created_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ApplicationPeopleTable {
  application_id: string;
  user_id: string;
  added_at: Timestamp;
}

/** An owner's invitation to become a co-owner or tester (migration 0500); `user_id` null when nobody matched. */
export interface ApplicationInvitationsTable {
  id: Generated<string>;
  application_id: string;
  role: DeveloperRole;
  named: string;
  user_id: string | null;
  invited_by: string | null;
  invited_at: Timestamp;
  expires_at: Timestamp;
}

export interface ApplicationReviewsTable {
  id: Generated<string>;
  application_id: string;
  requested_by: string | null;
  purpose: string;
  data_needed: string;
  requested_at: Timestamp;
  decision: ColumnType<"approved" | "rejected" | null, "approved" | "rejected" | null | undefined>;
  decision_reason: ColumnType<string, string | undefined, string>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  decided_at: NullableTimestamp;
  /** A unit admin's first approval (migration 0770): the unit, who and when; null until one. */
  unit_approved_unit_id: ColumnType<string | null, string | null | undefined, string | null>;
  unit_approved_by: ColumnType<string | null, string | null | undefined, string | null>;
  unit_approved_at: NullableTimestamp;
}

export interface IntegrationFailuresTable {
  id: Generated<string>;
  application_id: string;
  occurred_at: Timestamp;
  protocol: "ticket" | "oidc" | "cas" | "ldap";
  reason: string;
  /** The unregistered return address that was tried (migration 0630); empty for other reasons. */
  address: ColumnType<string, string | undefined, string>;
}

/** When each of an application's secrets was last accepted, by the secret's hash (migration 0630). */
export interface ApplicationSecretUsesTable {
  application_id: string;
  secret_hash: string;
  last_used_at: Date;
}

/** A change to a live application waiting for an operator (migration 0480, issue 56). */
export interface ApplicationChangesTable {
  id: Generated<string>;
  application_id: string;
  requested_by: string | null;
  requested_at: Timestamp;
  /** The new values in the developers' API's names; only the changed fields. */
  changes: ColumnType<Record<string, unknown>, string, string>;
  status: ColumnType<
    "pending" | "approved" | "rejected" | "withdrawn" | "replaced",
    "pending" | undefined,
    "approved" | "rejected" | "withdrawn" | "replaced"
  >;
  decision_reason: ColumnType<string, string | undefined, string>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  decided_at: NullableTimestamp;
  /** A unit admin's first approval (migration 0770): the unit, who and when; null until one. */
  unit_approved_unit_id: ColumnType<string | null, string | null | undefined, string | null>;
  unit_approved_by: ColumnType<string | null, string | null | undefined, string | null>;
  unit_approved_at: NullableTimestamp;
}

/** An uploaded application icon, served by KPI ID under its hash (migration 0480). */
export interface ApplicationIconsTable {
  sha256: string;
  application_id: string;
  content_type: "image/png" | "image/svg+xml";
  bytes: Uint8Array;
  created_at: Timestamp;
}

export interface DeveloperTables {
  application_owners: ApplicationPeopleTable;
  application_testers: ApplicationPeopleTable;
  application_invitations: ApplicationInvitationsTable;
  application_reviews: ApplicationReviewsTable;
  integration_failures: IntegrationFailuresTable;
  application_changes: ApplicationChangesTable;
  application_icons: ApplicationIconsTable;
  application_secret_uses: ApplicationSecretUsesTable;
}
