import { AccountScreen } from "@/features/account/components/account-screen.tsx";
import { pageContainer } from "@/lib/layout.ts";
import { cn } from "@/lib/utils.ts";
import { ProtectedGate, useCurrentUser } from "../gates/protected-gate.tsx";
import { BackButton } from "../layouts/page.tsx";

function SignedInAccount() {
  const user = useCurrentUser();
  return (
    <div className={cn(pageContainer, "flex flex-col gap-2 py-8 sm:py-12")}>
      <BackButton />
      <AccountScreen user={user} />
    </div>
  );
}

export function AccountRoute() {
  return (
    <ProtectedGate>
      <SignedInAccount />
    </ProtectedGate>
  );
}
