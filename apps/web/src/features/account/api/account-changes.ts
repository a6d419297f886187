import { googleLinkStartSchema } from "@kpi-id/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiFetch, apiJson } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { accountQueryKey } from "./account-queries.ts";

const post = (path: string, body: object = {}) => apiFetch(path, { method: "POST", body, failure: `Failed: ${path}` });

export const endSession = (sessionId: string) => post("/api/account/sessions/end", { sessionId });
export const endOtherSessions = () => post("/api/account/sessions/end-others");
export const revokeApplication = (applicationId: string) => post("/api/account/applications/revoke", { applicationId });
export const unlinkGoogle = () => post("/api/account/google/unlink");

/** The server answers Google's URL in link mode; the browser goes there and comes back to the account page. */
export async function linkGoogle(): Promise<void> {
  const { url } = await apiJson(
    "/api/account/google/link",
    { method: "POST", body: {}, failure: "Failed to link Google" },
    googleLinkStartSchema,
  );
  browser.assign(url);
}

/** The next sign-in in this browser comes back to the account page (before Diia or Google re-authentication). */
export const continueToAccount = () => post("/api/account/reauth/continue");

/** Refusals the "confirm it is you" dialog answers: a sign-in too old, or one without the second factor the person holds. */
const reauthCodes: readonly string[] = ["auth.reauth_required", "auth.reauth_second_factor_required"];

export const needsReauth = (error: unknown) => error instanceof ApiError && reauthCodes.includes(error.code ?? "");

/**
 * One change of the account page: the page's answers reload after it; a refusal for a stale sign-in goes to
 * `onReauth` (the page asks the person to prove it is them, then retries); any other refusal is said in a toast.
 */
export function useAccountChange<T>(
  change: (input: T) => Promise<unknown>,
  onReauth: (retry: () => void, reason: unknown) => void,
) {
  const queryClient = useQueryClient();
  const describeError = useErrorMessage();
  const mutation = useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountQueryKey }),
    onError: (error, input) => {
      if (needsReauth(error)) onReauth(() => mutation.mutate(input), error);
      else notify("error", describeError(error, "account:errors.generic").message);
    },
  });
  return mutation;
}
