import type { AppLinkCheck } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

/** What the sign-in link is wrong about, told before sign-in: the application, or the callback it named. */
export type AppLinkProblem = "unknownApp" | "unregisteredRedirectUri";

function problemOf(check: AppLinkCheck): AppLinkProblem | undefined {
  if (!check.known) return "unknownApp";
  return check.redirectUriRegistered ? undefined : "unregisteredRedirectUri";
}

/**
 * What KPI ID says about a link's application: known or not, its callback registered or not, its names and whether
 * the university reviewed it. Asked only for an appId; nothing while it loads or if it fails.
 */
export function useAppLinkCheck(appId: string | null, redirectUri: string | null = null): AppLinkCheck | undefined {
  const query = new URLSearchParams();
  if (appId) query.set("appId", appId);
  if (redirectUri) query.set("redirectUri", redirectUri);
  const check = useQuery({
    queryKey: ["app-link", query.toString()],
    queryFn: () =>
      apiJson(`/api/app-link?${query}`, { failure: "Failed to check the application" }, ownAnswer<AppLinkCheck>()),
    enabled: appId !== null && appId !== "",
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return check.data;
}

/** The sign-in page's link: what is wrong with it, and the application it names (issue 60 names it on the page). */
export function useAppLink(search: string): { problem?: AppLinkProblem; check?: AppLinkCheck } {
  const link = new URLSearchParams(search);
  const check = useAppLinkCheck(link.get("appId"), link.get("redirectUri"));
  return { problem: check ? problemOf(check) : undefined, check };
}
