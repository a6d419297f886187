import { AccountScreen } from "@/features/account/components/account-screen.tsx";
import { ProtectedGate, useCurrentUser } from "../gates/protected-gate.tsx";
import { BackButton } from "../layouts/page.tsx";

function SignedInAccount() {
  const user = useCurrentUser();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-2 px-4 py-6 sm:px-6 sm:py-10">
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
