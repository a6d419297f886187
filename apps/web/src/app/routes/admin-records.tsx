import { AuditScreen } from "@/features/admin/components/audit-screen.tsx";
import { ConsoleShell } from "@/features/admin/components/console-shell.tsx";
import { ImportScreen } from "@/features/admin/components/import-screen.tsx";

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
