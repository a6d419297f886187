import type { ConsoleCall, Role } from "./console-call.ts";

const adminOnly: Role[] = ["admin"];
const both: Role[] = ["admin", "helpdesk"];

/**
 * The console endpoints of the services around people (review of developers' applications, Wi-Fi, LDAP clients,
 * sponsored guests, units and their roles), in console-calls.ts's table: split from it by console area.
 */
export const serviceConsoleCalls: ConsoleCall[] = [
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
