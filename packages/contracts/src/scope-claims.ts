import type { applicationScopes } from "./admin-applications.ts";

/**
 * The claims each OpenID Connect scope adds to the ID token and userinfo. The server's provider releases exactly
 * these (apps/server/src/protocols/oidc/claims.ts) and the developers' page lists them claim by claim
 * (scopes-field.tsx): one table, so the page cannot promise a claim the server does not send (issue 60).
 */
export const claimsByScope = {
  // amr (how the person signed in) and acr (how strongly: REFEDS SFA or MFA) go into every ID token.
  openid: ["sub", "amr", "acr"],
  profile: ["name", "given_name", "family_name"],
  email: ["email", "email_verified"],
  kpi: ["kpi_student_id", "kpi_employee_id", "kpi_records", "eduperson_affiliation", "eduperson_scoped_affiliation"],
  // A refresh token, no claim of its own.
  offline_access: [],
  // Only for an application the operators allow it (issue 19).
  tax_id: ["kpi_tax_id"],
} as const satisfies Record<(typeof applicationScopes)[number], readonly string[]>;
