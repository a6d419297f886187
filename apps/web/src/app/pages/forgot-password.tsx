import { ForgotPasswordScreen } from "@/features/password/components/forgot-password-screen.tsx";

export function ForgotPasswordRoute() {
  return <ForgotPasswordScreen />;
}
