export type Role = "admin" | "helpdesk";
export type UnitRoleName = "unit_admin" | "unit_helpdesk";

export interface ConsoleCall {
  method: "GET" | "POST";
  /** The path as the API reference names it. */
  route: string;
  /** Who may call it; everyone else gets 403 admin.forbidden. */
  allowed: Role[];
  /**
   * Which unit roles may call it within their reach (issue 79); for the others it does not exist (404). The
   * authorization matrix (unit-authorization-matrix.test.ts) asserts every cell.
   */
  unit: UnitRoleName[];
  body?: Record<string, unknown>;
  query?: string;
  /** What an allowed caller gets when not 200 (the test app sends no mail: recovery is not available). */
  answer?: { status: number; code?: string };
}

const both: Role[] = ["admin", "helpdesk"];
// Import and the audit log are admin's alone (issue 18: helpdesk handles people one at a time).
const importFile = Buffer.from("username,full-name\r\nimported.one,Імпортована Особа\r\n").toString("base64");
const adminOnly: Role[] = ["admin"];

/** Every console endpoint and who may use it: admin-authorization.test.ts's own copy of the authorization table. */
export const consoleCalls: ConsoleCall[] = [
  { method: "GET", route: "/api/admin/me", unit: ["unit_admin", "unit_helpdesk"], allowed: both },
  {
    method: "GET",
    route: "/api/admin/people",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    query: "?q=target",
  },
  { method: "GET", route: "/api/admin/people/{id}", unit: ["unit_admin", "unit_helpdesk"], allowed: both },
  {
    method: "POST",
    route: "/api/admin/people/{id}/unlock",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/sessions/end",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/second-factor/reset",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/recovery-mail",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
    answer: { status: 404, code: "recovery.not_available" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/profile",
    unit: [],
    allowed: adminOnly,
    body: { fullName: "Ціль Змінена" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/status",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { status: "active" },
  },
  // An admin's erasure; the wrong confirmation keeps the shared target for the rows after it.
  {
    method: "POST",
    route: "/api/admin/people/{id}/erase",
    unit: [],
    allowed: adminOnly,
    body: { username: "not-the-target" },
    answer: { status: 400, code: "admin.erase_not_confirmed" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/access/grant",
    unit: [],
    allowed: adminOnly,
    body: { applicationId: "{app}" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/access/revoke",
    unit: [],
    allowed: adminOnly,
    body: { applicationId: "{app}" },
  },
  { method: "GET", route: "/api/admin/applications", unit: ["unit_admin"], allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/applications",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { name: "console-made-{n}", title: "Зроблений у консолі", callbackUrl: "https://made.kpi.ua/callback" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/rotate-secret",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: {},
  },
  { method: "GET", route: "/api/admin/applications/{app}", unit: ["unit_admin"], allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/applications/{app}",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { titleEn: "Edited in the console", requireMfa: false },
  },
  {
    method: "GET",
    route: "/api/admin/applications/{app}/people",
    unit: ["unit_admin"],
    allowed: adminOnly,
    query: "?q=targ&page=1",
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/access/bulk-grant",
    unit: [],
    allowed: adminOnly,
    body: { list: "username\ntarget\nnobody-here\n" },
  },
  { method: "GET", route: "/api/admin/applications/{app}/access", unit: ["unit_admin"], allowed: adminOnly },
  { method: "GET", route: "/api/admin/applications/{app}/cas-services", unit: ["unit_admin"], allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/cas-services",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { url: "https://cas-client.example/app/", prefix: true },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/cas-services/remove",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { url: "https://cas-client.example/app/" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/rules",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { affiliation: "alum" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/rules/remove",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { ruleId: "00000000-0000-4000-8000-000000000000" },
    answer: { status: 404, code: "app.rule_not_found" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/exclusions",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { username: "target" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/exclusions/remove",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { userId: "00000000-0000-4000-8000-000000000000" },
  },
  {
    method: "POST",
    route: "/api/admin/import/jobs",
    unit: [],
    allowed: adminOnly,
    body: { file: importFile, fileName: "people.csv", mode: "dry-run" },
    answer: { status: 202 },
  },
  { method: "GET", route: "/api/admin/import/jobs/latest", unit: [], allowed: adminOnly },
  {
    method: "GET",
    route: "/api/admin/import/jobs/{job}",
    unit: [],
    allowed: adminOnly,
    answer: { status: 404, code: "admin.import_job_not_found" },
  },
  {
    method: "POST",
    route: "/api/admin/import/jobs/{job}/cancel",
    unit: [],
    allowed: adminOnly,
    body: {},
    answer: { status: 404, code: "admin.import_job_not_found" },
  },
  // The developers' applications waiting for review, deciding one (a unit admin their units'; issue 79), and
  // suspending one (issue 39); the matrix's applications have no request waiting.
  { method: "GET", route: "/api/admin/reviews", unit: ["unit_admin"], allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/reviews/{id}",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { decision: "approved", requestId: "00000000-0000-4000-8000-000000000000" },
    answer: { status: 409, code: "admin.review_not_pending" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/suspension",
    unit: ["unit_admin"],
    allowed: adminOnly,
    body: { suspended: false },
  },
  { method: "GET", route: "/api/admin/audit", unit: ["unit_admin"], allowed: adminOnly, query: "?type=sign_in" },
  {
    method: "GET",
    route: "/api/admin/audit/export",
    unit: ["unit_admin"],
    allowed: adminOnly,
    query: "?result=failure",
  },
  { method: "GET", route: "/api/admin/keys", unit: [], allowed: adminOnly },
  { method: "POST", route: "/api/admin/keys/rotate", unit: [], allowed: adminOnly, body: {} },
  { method: "GET", route: "/api/admin/service", unit: [], allowed: adminOnly },
  // Wi-Fi (issue 61): the figures with the service's; a person's devices and switch with helpdesk's tools.
  { method: "GET", route: "/api/admin/wifi/stats", unit: [], allowed: adminOnly },
  { method: "GET", route: "/api/admin/people/{id}/wifi", unit: ["unit_admin", "unit_helpdesk"], allowed: both },
  {
    method: "POST",
    route: "/api/admin/people/{id}/wifi/off",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/wifi/on",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/wifi/passwords/{passwordId}/revoke",
    unit: ["unit_admin", "unit_helpdesk"],
    allowed: both,
    body: {},
    answer: { status: 404, code: "wifi.password_not_found" },
  },
  // LDAP's registered clients (issue 77): admin's, as applications are.
  // Sponsored guests (issue 78): the console's list; a unit role gets an empty list (not yet scoped to units).
  { method: "GET", route: "/api/admin/guests", allowed: both, unit: ["unit_admin", "unit_helpdesk"] },
  { method: "GET", route: "/api/admin/ldap/clients", allowed: adminOnly, unit: [] },
  {
    method: "POST",
    route: "/api/admin/ldap/clients",
    allowed: adminOnly,
    unit: [],
    body: {
      name: "console-ldap-{n}",
      title: "Зареєстрований у консолі",
      applicationId: "{app}",
      subtree: "people",
      attributes: ["uid", "cn"],
      addresses: [],
      kpiPasswordAllowed: false,
    },
  },
  {
    method: "POST",
    route: "/api/admin/ldap/clients/{name}/remove",
    allowed: adminOnly,
    unit: [],
    body: {},
    answer: { status: 404, code: "ldap.client_not_found" },
  },
  // Units within reach, for the console's pickers, and an admin's granting of roles in units (issue 79).
  { method: "GET", route: "/api/admin/units", allowed: both, unit: ["unit_admin", "unit_helpdesk"] },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/unit",
    allowed: adminOnly,
    unit: ["unit_admin"],
    body: { unitId: "00000000-0000-4000-8000-000000000000" },
    answer: { status: 404, code: "admin.unit_not_found" },
  },
  // Whether a unit's admins decide its reviews finally: central IT's alone, so no unit admin makes their own final.
  {
    method: "POST",
    route: "/api/admin/units/{id}/reviews-final",
    allowed: adminOnly,
    unit: [],
    body: { final: true },
    answer: { status: 404, code: "admin.unit_not_found" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/unit-roles/grant",
    allowed: adminOnly,
    unit: [],
    body: { unitId: "00000000-0000-4000-8000-000000000000", role: "unit_helpdesk" },
    answer: { status: 404, code: "admin.unit_not_found" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/unit-roles/revoke",
    allowed: adminOnly,
    unit: [],
    body: { unitId: "00000000-0000-4000-8000-000000000000", role: "unit_helpdesk" },
    answer: { status: 404, code: "admin.unit_not_found" },
  },
];
