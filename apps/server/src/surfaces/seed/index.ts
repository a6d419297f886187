/** The demo campus as other workspaces see it (`@kpi-id/server/seed`): the stand-ins offer the same people. */
export { DEMO_SITE_ORIGIN, type DemoPerson, demoApplications, demoPeople } from "./demo-data.ts";
