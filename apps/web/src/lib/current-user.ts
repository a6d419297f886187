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

export function useUser() {
  return useQuery(userQueryOptions);
}
