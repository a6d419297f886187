import { AppsScreen } from "@/features/apps/components/apps-screen.tsx";
import { ProtectedGate } from "../gates/protected-gate.tsx";

export function AppsRoute() {
  return <ProtectedGate>{(user) => <AppsScreen user={user} />}</ProtectedGate>;
}
