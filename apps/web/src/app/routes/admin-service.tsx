import { KeysScreen } from "@/features/console-service/components/keys-screen.tsx";
import { ServiceScreen } from "@/features/console-service/components/service-screen.tsx";
import { ConsoleShell } from "@/features/console-shell/components/console-shell.tsx";

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
