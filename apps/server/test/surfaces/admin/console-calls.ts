export type Role = "admin" | "helpdesk";

export interface ConsoleCall {
  method: "GET" | "POST";
  /** The path as the API reference names it. */
  route: string;
  /** Who may call it; everyone else gets 403 admin.forbidden. */
  allowed: Role[];
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
  { method: "GET", route: "/api/admin/me", allowed: both },
  { method: "GET", route: "/api/admin/people", allowed: both, query: "?q=target" },
  { method: "GET", route: "/api/admin/people/{id}", allowed: both },
  { method: "POST", route: "/api/admin/people/{id}/unlock", allowed: both, body: {} },
  { method: "POST", route: "/api/admin/people/{id}/sessions/end", allowed: both, body: {} },
  { method: "POST", route: "/api/admin/people/{id}/second-factor/reset", allowed: both, body: {} },
  {
    method: "POST",
    route: "/api/admin/people/{id}/recovery-mail",
    allowed: both,
    body: {},
    answer: { status: 404, code: "recovery.not_available" },
  },
  { method: "POST", route: "/api/admin/people/{id}/profile", allowed: adminOnly, body: { fullName: "Ціль Змінена" } },
  { method: "POST", route: "/api/admin/people/{id}/status", allowed: adminOnly, body: { status: "active" } },
  // An admin's erasure; the wrong confirmation keeps the shared target for the rows after it.
  {
    method: "POST",
    route: "/api/admin/people/{id}/erase",
    allowed: adminOnly,
    body: { username: "not-the-target" },
    answer: { status: 400, code: "admin.erase_not_confirmed" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/access/grant",
    allowed: adminOnly,
    body: { applicationId: "{app}" },
  },
  {
    method: "POST",
    route: "/api/admin/people/{id}/access/revoke",
    allowed: adminOnly,
    body: { applicationId: "{app}" },
  },
  { method: "GET", route: "/api/admin/applications", allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/applications",
    allowed: adminOnly,
    body: { name: "console-made-{n}", title: "Зроблений у консолі", callbackUrl: "https://made.kpi.ua/callback" },
  },
  { method: "POST", route: "/api/admin/applications/{app}/rotate-secret", allowed: adminOnly, body: {} },
  { method: "GET", route: "/api/admin/applications/{app}", allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/applications/{app}",
    allowed: adminOnly,
    body: { titleEn: "Edited in the console", requireMfa: false },
  },
  { method: "GET", route: "/api/admin/applications/{app}/people", allowed: adminOnly, query: "?q=targ&page=1" },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/access/bulk-grant",
    allowed: adminOnly,
    body: { list: "username\ntarget\nnobody-here\n" },
  },
  { method: "GET", route: "/api/admin/applications/{app}/access", allowed: adminOnly },
  { method: "GET", route: "/api/admin/applications/{app}/cas-services", allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/cas-services",
    allowed: adminOnly,
    body: { url: "https://cas-client.example/app/", prefix: true },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/cas-services/remove",
    allowed: adminOnly,
    body: { url: "https://cas-client.example/app/" },
  },
  { method: "POST", route: "/api/admin/applications/{app}/rules", allowed: adminOnly, body: { affiliation: "alum" } },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/rules/remove",
    allowed: adminOnly,
    body: { ruleId: "00000000-0000-4000-8000-000000000000" },
    answer: { status: 404, code: "app.rule_not_found" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/exclusions",
    allowed: adminOnly,
    body: { username: "target" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/exclusions/remove",
    allowed: adminOnly,
    body: { userId: "00000000-0000-4000-8000-000000000000" },
  },
  {
    method: "POST",
    route: "/api/admin/import/jobs",
    allowed: adminOnly,
    body: { file: importFile, fileName: "people.csv", mode: "dry-run" },
    answer: { status: 202 },
  },
  { method: "GET", route: "/api/admin/import/jobs/latest", allowed: adminOnly },
  {
    method: "GET",
    route: "/api/admin/import/jobs/{job}",
    allowed: adminOnly,
    answer: { status: 404, code: "admin.import_job_not_found" },
  },
  {
    method: "POST",
    route: "/api/admin/import/jobs/{job}/cancel",
    allowed: adminOnly,
    body: {},
    answer: { status: 404, code: "admin.import_job_not_found" },
  },
  // The developers' applications waiting for review, and suspending one (issue 39); {id} names no application here.
  { method: "GET", route: "/api/admin/reviews", allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/reviews/{id}",
    allowed: adminOnly,
    body: { decision: "approved", requestId: "00000000-0000-4000-8000-000000000000" },
    answer: { status: 409, code: "admin.review_not_pending" },
  },
  {
    method: "POST",
    route: "/api/admin/applications/{app}/suspension",
    allowed: adminOnly,
    body: { suspended: false },
  },
  { method: "GET", route: "/api/admin/audit", allowed: adminOnly, query: "?type=sign_in" },
  { method: "GET", route: "/api/admin/audit/export", allowed: adminOnly, query: "?result=failure" },
  { method: "GET", route: "/api/admin/keys", allowed: adminOnly },
  { method: "POST", route: "/api/admin/keys/rotate", allowed: adminOnly, body: {} },
  { method: "GET", route: "/api/admin/service", allowed: adminOnly },
  // Wi-Fi (issue 61): the figures with the service's; a person's devices and switch with helpdesk's tools.
  { method: "GET", route: "/api/admin/wifi/stats", allowed: adminOnly },
  { method: "GET", route: "/api/admin/people/{id}/wifi", allowed: both },
  { method: "POST", route: "/api/admin/people/{id}/wifi/off", allowed: both, body: {} },
  { method: "POST", route: "/api/admin/people/{id}/wifi/on", allowed: both, body: {} },
  {
    method: "POST",
    route: "/api/admin/people/{id}/wifi/passwords/{passwordId}/revoke",
    allowed: both,
    body: {},
    answer: { status: 404, code: "wifi.password_not_found" },
  },
  // LDAP's registered clients (issue 77): admin's, as applications are.
  { method: "GET", route: "/api/admin/ldap/clients", allowed: adminOnly },
  {
    method: "POST",
    route: "/api/admin/ldap/clients",
    allowed: adminOnly,
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
    body: {},
    answer: { status: 404, code: "ldap.client_not_found" },
  },
];
