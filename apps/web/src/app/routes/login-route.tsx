import { LoginScreen } from "@/features/auth/components/login-screen.tsx";
import { EntryGate } from "../gates/entry-gate.tsx";

/** The sign-in page's route: a signed-in person goes on (EntryGate), everyone else sees the sign-in screen. */
export function LoginRoute() {
  return (
    <EntryGate>
      <LoginScreen />
    </EntryGate>
  );
}
