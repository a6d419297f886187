import { AuthSuccessScreen } from "@/features/auth/components/auth-success-screen.tsx";

export function AuthSuccessRoute() {
  return <AuthSuccessScreen />;
}
