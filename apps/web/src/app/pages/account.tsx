import { BackButton } from "@/components/content-page.tsx";
import { AccountScreen } from "@/features/account/components/account-screen.tsx";
import { pageContainer } from "@/lib/layout.ts";
import { cn } from "@/lib/utils.ts";
import { ProtectedGate } from "../gates/protected-gate.tsx";

export function AccountRoute() {
  return (
    <ProtectedGate>
      {(user) => (
        <div className={cn(pageContainer, "flex flex-col gap-2 py-8 sm:py-12")}>
          <BackButton />
          <AccountScreen user={user} />
        </div>
      )}
    </ProtectedGate>
  );
}
