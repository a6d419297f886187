import type { SignInContinuing } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/api-client.ts";

async function fetchContinuing(): Promise<SignInContinuing | null> {
  const response = await apiFetch("/api/sign-in/continuing", { failure: "Failed to read the waiting sign-in" });
  // 204: no application's sign-in waits in this browser (KPI ID's own pages, or none).
  if (response.status === 204) return null;
  return (await response.json()) as SignInContinuing;
}

/**
 * The application an OpenID Connect, SAML or CAS sign-in continues to (issue 60): those send the browser to the bare
 * sign-in page and keep the application in the server's pending sign-in cookie, which scripts cannot read. Asked
 * only when the address names no application itself; nothing while it loads or if it fails.
 */
export function useSignInContinuing(enabled: boolean): SignInContinuing | undefined {
  const query = useQuery({
    queryKey: ["sign-in-continuing"],
    queryFn: fetchContinuing,
    enabled,
    retry: false,
    // Asked again each time the page shows: after a sign-out in this tab, an earlier sign-in's answer is stale.
    staleTime: 0,
  });
  return query.data ?? undefined;
}
