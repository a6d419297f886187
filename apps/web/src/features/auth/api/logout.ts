import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

export async function logout(): Promise<void> {
  await apiFetch("/api/auth/logout", { method: "POST", failure: "Failed to logout" });
}

/** On success the page reloads, so every cached answer about the person is gone; a failure says why. */
export function useLogout() {
  const describeError = useErrorMessage();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => browser.reload(),
    onError: (error) => notify("error", describeError(error, "common:errors.logout").message),
  });
}
