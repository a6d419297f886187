import { ApplicationScreen } from "@/features/admin/components/application-screen.tsx";
import { ApplicationsScreen } from "@/features/admin/components/applications-screen.tsx";
import { ConsoleShell } from "@/features/admin/components/console-shell.tsx";
import { GuestsScreen } from "@/features/admin/components/guests-screen.tsx";
import { PeopleScreen } from "@/features/admin/components/people-screen.tsx";
import { PersonScreen } from "@/features/admin/components/person-screen.tsx";

// The operators' console: loaded only when an operator opens /{lang}/admin, never with the login page.

export function AdminPeopleRoute() {
  return (
    <ConsoleShell>
      <PeopleScreen />
    </ConsoleShell>
  );
}

export function AdminPersonRoute() {
  return (
    <ConsoleShell>
      <PersonScreen />
    </ConsoleShell>
  );
}

export function AdminApplicationsRoute() {
  return (
    <ConsoleShell>
      <ApplicationsScreen />
    </ConsoleShell>
  );
}

export function AdminApplicationRoute() {
  return (
    <ConsoleShell>
      <ApplicationScreen />
    </ConsoleShell>
  );
}

// The console's pages come through this one module, so the page the server writes for /admin preloads
// one chunk set (route-modules.ts names one module per page).
export { AdminAuditRoute, AdminImportRoute } from "./admin-records.tsx";
export { AdminReviewsRoute } from "./admin-reviews.tsx";
export { AdminKeysRoute, AdminServiceRoute } from "./admin-service.tsx";

export function AdminGuestsRoute() {
  return (
    <ConsoleShell>
      <GuestsScreen />
    </ConsoleShell>
  );
}
