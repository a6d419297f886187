import { ConsoleShell } from "@/features/admin/components/console-shell.tsx";
import { KeysScreen } from "@/features/admin/components/keys-screen.tsx";
import { LdapClientsScreen } from "@/features/admin/components/ldap-clients-screen.tsx";
import { ServiceScreen } from "@/features/admin/components/service-screen.tsx";

// The console's signing keys and service screens: part of the console's lazy chunk, loaded only for operators.

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
