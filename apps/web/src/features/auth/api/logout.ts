import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiFetch } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";

export async function logout(): Promise<void> {
  await apiFetch("/api/auth/logout", { method: "POST", failure: "Failed to logout" });
}

/** On success the page reloads, so every cached answer about the person is gone. */
export function useLogout(failureMessage: string) {
  return useMutation({
    mutationFn: logout,
    onSuccess: () => browser.reload(),
    onError: () => toast.error(failureMessage),
  });
}
