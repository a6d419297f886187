import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

/** Where the browser goes next: KPI ID's own path that signs out of the session's SAML services, if any. */
export async function logout(): Promise<string | undefined> {
  const response = await apiFetch("/api/auth/logout", { method: "POST", failure: "Failed to logout" });
  const body: unknown = response.status === 200 ? await response.json().catch(() => undefined) : undefined;
  const next = typeof body === "object" && body !== null && "next" in body ? body.next : undefined;
  // Only a path of KPI ID itself (never another site): /saml/logout/{round}.
  return typeof next === "string" && next.startsWith("/saml/logout/") ? next : undefined;
}

/**
 * On success the page reloads, so every cached answer about the person is gone (or goes
 * through the SAML services' sign-out first, which ends on the sign-in screen); a failure says why.
 */
export function useLogout() {
  const describeError = useErrorMessage();
  return useMutation({
    mutationFn: logout,
    onSuccess: (next) => (next ? browser.assign(next) : browser.reload()),
    onError: (error) => notify("error", describeError(error, "common:errors.logout").message),
  });
}
