// Known exceptions to the source rules, each with its reason (issue 58); an entry whose file no longer breaks the
// rule fails the check, so the list only shrinks. What is left: the reads issue 76 has not yet moved behind the
// owner's functions (table-reader), file by file and table by table.
export interface AllowlistEntry {
  rule: string;
  /** Repository-relative path. */
  file: string;
  /** For table-owner: the table the file may still write. */
  table?: string;
  reason: string;
}

/** A model or platform file still naming another area's tables, to be read through the owner's functions. */
function readsAround(file: string, ...tables: string[]): AllowlistEntry[] {
  return tables.map((table) => ({
    rule: "table-reader",
    file: `apps/server/src/${file}`,
    table,
    reason: "issue 76: still names another area's table; move the read behind a function of the owner's surface",
  }));
}

export const allowlist: readonly AllowlistEntry[] = [
  // Issue 79's unit scoping, merged after issue 76's surfaces: its reads around the owners are still to be moved.
  ...readsAround("model/audit-trail/trail.ts", "applications"),
  ...readsAround("model/sessions/load.ts", "unit_roles"),
  ...readsAround("model/users/unit-roles.ts", "units"),
  ...readsAround("model/guests/invitations.ts", "users"),
  ...readsAround("model/guests/lifecycle.ts", "users", "operator_roles", "person_affiliations"),
  ...readsAround("model/guests/limits.ts", "users", "units"),
  ...readsAround("model/guests/sponsors.ts", "person_affiliations", "units", "applications"),
  ...readsAround("model/guests/views.ts", "users", "units", "applications"),
  ...readsAround("model/ldap/activity.ts", "audit_events"),
  ...readsAround("model/privacy/erase-ended.ts", "users"),
  ...readsAround(
    "model/access/applications.ts",
    "person_affiliations",
    "units",
    "applications",
    "application_owners",
    "application_testers",
  ),
  ...readsAround("model/access/bulk-grant.ts", "users"),
  ...readsAround("model/access/connected-applications.ts", "oidc_payloads", "applications"),
  ...readsAround("model/access/people-with-access.ts", "users"),
  ...readsAround("model/access/rules.ts", "units", "users", "person_affiliations"),
  ...readsAround("model/access/consents.ts", "saml_service_providers", "applications"),
  ...readsAround("model/access/ticket-consents.ts", "application_owners", "users"),
  ...readsAround("model/cas/sign-ins.ts", "sessions"),
  ...readsAround("model/cas/tickets.ts", "users", "sessions"),
  ...readsAround("model/developers/changes.ts", "applications"),
  ...readsAround("model/developers/icons.ts", "applications"),
  ...readsAround("model/developers/invitations.ts", "users", "applications"),
  ...readsAround("model/developers/memberships.ts", "applications", "users"),
  ...readsAround("model/developers/notices.ts", "users"),
  ...readsAround("model/developers/people.ts", "users", "applications"),
  ...readsAround("model/developers/reserved-names.ts", "applications"),
  ...readsAround("model/developers/review-queue.ts", "applications", "users"),
  ...readsAround("model/developers/store.ts", "applications", "person_affiliations", "users"),
  ...readsAround("model/forward-auth/store.ts", "sessions", "users"),
  ...readsAround("model/ldap/directory.ts", "users", "units", "person_affiliations"),
  ...readsAround("model/people/units.ts", "access_rules"),
  ...readsAround("model/privacy/erase-request.ts", "users"),
  ...readsAround("model/privacy/erase.ts", "operator_roles"),
  ...readsAround(
    "model/privacy/export-reads.ts",
    "totp_factors",
    "recovery_codes",
    "webauthn_credentials",
    "external_identities",
    "users",
    "student_records",
    "units",
    "employee_positions",
  ),
  ...readsAround("model/privacy/leavers.ts", "users", "operator_roles"),
  ...readsAround("model/scim/group-members.ts", "users"),
  ...readsAround("model/scim/group-views.ts", "units", "student_records", "employee_positions", "users"),
  ...readsAround("model/scim/user-candidates.ts", "users"),
  ...readsAround("model/scim/user-lookups.ts", "units", "users"),
  ...readsAround("model/scim/user-records.ts", "student_records", "employee_positions", "person_affiliations", "units"),
  ...readsAround("model/sessions/grants.ts", "users"),
  ...readsAround("model/sessions/load.ts", "users", "applications", "operator_roles"),
  ...readsAround("model/sessions/recent-sign-in.ts", "totp_factors", "webauthn_credentials"),
  ...readsAround("model/tickets/site-tickets.ts", "users", "sessions"),
  ...readsAround("model/tickets/store.ts", "users"),
  ...readsAround("model/users/people-search.ts", "user_applications"),
  ...readsAround(
    "model/users/person-reads.ts",
    "user_applications",
    "applications",
    "audit_events",
    "student_records",
    "units",
    "employee_positions",
    "totp_factors",
    "webauthn_credentials",
    "throttle_counters",
  ),
  ...readsAround("model/users/primary-records.ts", "student_records", "employee_positions"),
  ...readsAround("model/users/snapshot.ts", "student_records", "employee_positions", "user_applications"),
];
