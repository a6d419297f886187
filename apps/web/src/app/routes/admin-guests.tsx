import { ConsoleShell } from "@/features/admin/components/console-shell.tsx";
import { GuestsScreen } from "@/features/admin/components/guests-screen.tsx";

export function AdminGuestsRoute() {
  return (
    <ConsoleShell>
      <GuestsScreen />
    </ConsoleShell>
  );
}
