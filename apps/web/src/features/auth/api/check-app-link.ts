import type { AppLinkCheck } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

/** What the sign-in link is wrong about, told before sign-in: the application, or the callback it named. */
export type AppLinkProblem = "unknownApp" | "unregisteredRedirectUri";

function problemOf(check: AppLinkCheck): AppLinkProblem | undefined {
  if (!check.known) return "unknownApp";
  return check.redirectUriRegistered ? undefined : "unregisteredRedirectUri";
}

/** Asked only when the page was opened with an appId; nothing is shown while it loads or if it fails. */
export function useAppLinkProblem(search: string): AppLinkProblem | undefined {
  const link = new URLSearchParams(search);
  const appId = link.get("appId");
  const query = new URLSearchParams();
  if (appId) query.set("appId", appId);
  const redirectUri = link.get("redirectUri");
  if (redirectUri) query.set("redirectUri", redirectUri);
  const check = useQuery({
    queryKey: ["app-link", query.toString()],
    queryFn: () =>
      apiJson(`/api/app-link?${query}`, { failure: "Failed to check the application" }, ownAnswer<AppLinkCheck>()),
    enabled: appId !== null && appId !== "",
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return check.data ? problemOf(check.data) : undefined;
}
