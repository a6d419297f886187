import type { SecondFactorRequest } from "@kpi-id/contracts";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/api-client.ts";
import { exchangeSession } from "./exchange-session.ts";
import { signInMutationKey } from "./password-login.ts";

/** Gives the code for a grant that owes it, then trades the grant for the session; answers where to go next. */
export async function proveSecondFactor(request: SecondFactorRequest): Promise<string> {
  await apiFetch("/api/auth/second-factor", { method: "POST", body: request, failure: "Failed to check the code" });
  return exchangeSession(request.sessionId);
}

export function useSecondFactor(onSignedIn: (next: string) => Promise<void> | void) {
  return useMutation({
    mutationKey: signInMutationKey,
    mutationFn: proveSecondFactor,
    onSuccess: (next) => onSignedIn(next),
  });
}
