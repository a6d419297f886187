import type { CurrentUser } from "@kpi-id/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

export const userQueryKey = ["user"] as const;

/** The signed-in person; a redirect or any non-ok answer means nobody is signed in. */
export function getUser(): Promise<CurrentUser> {
  return apiJson("/user", { failure: "Failed to authenticate", redirect: "error" }, ownAnswer<CurrentUser>());
}

/** The person, or null when the page said nobody is signed in (it came without a session cookie). */
export const userQueryOptions = queryOptions<CurrentUser | null>({
  queryKey: userQueryKey,
  queryFn: getUser,
  refetchOnMount: false,
  refetchOnWindowFocus: false,
  retry: false,
  staleTime: 150_000,
});

/**
 * The signed-in person as the page knows them: the one hook for who is signed in. Pending while `/user` is asked;
 * `null` when nobody is. Pages behind the protected gate get the person from the gate instead (never null there).
 */
export function useCurrentUser() {
  return useQuery(userQueryOptions);
}
