import { ApplicationScreen } from "@/features/console-applications/components/application-screen.tsx";
import { ApplicationsScreen } from "@/features/console-applications/components/applications-screen.tsx";
import { AuditScreen } from "@/features/console-audit/components/audit-screen.tsx";
import { GuestsScreen } from "@/features/console-people/components/guests-screen.tsx";
import { ImportScreen } from "@/features/console-people/components/import-screen.tsx";
import { PeopleScreen } from "@/features/console-people/components/people-screen.tsx";
import { PersonScreen } from "@/features/console-people/components/person-screen.tsx";
import { ReviewQueueScreen } from "@/features/console-reviews/components/review-queue-screen.tsx";
import { KeysScreen } from "@/features/console-service/components/keys-screen.tsx";
import { LdapClientsScreen } from "@/features/console-service/components/ldap-clients-screen.tsx";
import { ServiceScreen } from "@/features/console-service/components/service-screen.tsx";
import { ConsoleShell } from "@/features/console-shell/components/console-shell.tsx";

// The operators' console: loaded only when an operator opens /{lang}/admin, never with the login page. Its pages
// come through this one module, so the page the server writes for /admin preloads one chunk set (page-table.ts
// names one module per page).

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

export function AdminReviewsRoute() {
  return (
    <ConsoleShell>
      <ReviewQueueScreen />
    </ConsoleShell>
  );
}

export function AdminImportRoute() {
  return (
    <ConsoleShell>
      <ImportScreen />
    </ConsoleShell>
  );
}

export function AdminAuditRoute() {
  return (
    <ConsoleShell>
      <AuditScreen />
    </ConsoleShell>
  );
}

export function AdminKeysRoute() {
  return (
    <ConsoleShell>
      <KeysScreen />
    </ConsoleShell>
  );
}

export function AdminServiceRoute() {
  return (
    <ConsoleShell>
      <ServiceScreen />
    </ConsoleShell>
  );
}

export function AdminLdapRoute() {
  return (
    <ConsoleShell>
      <LdapClientsScreen />
    </ConsoleShell>
  );
}

export function AdminGuestsRoute() {
  return (
    <ConsoleShell>
      <GuestsScreen />
    </ConsoleShell>
  );
}
