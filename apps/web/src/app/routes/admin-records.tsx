import { AuditScreen } from "@/features/console-audit/components/audit-screen.tsx";
import { ImportScreen } from "@/features/console-people/components/import-screen.tsx";
import { ConsoleShell } from "@/features/console-shell/components/console-shell.tsx";

// The console's import and audit screens: part of the console's lazy chunk, loaded only for operators.

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
