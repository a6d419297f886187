import { type ConsentDetails, consentDetailsSchema, oidcInteractionPath } from "@kpi-id/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";

/** What the application asks for; needs the KPI ID session and the interaction cookie. */
export function getInteraction(uid: string): Promise<ConsentDetails> {
  return apiJson(
    `${oidcInteractionPath}/${encodeURIComponent(uid)}/details`,
    { failure: "Failed to load the sign-in request" },
    consentDetailsSchema,
  );
}

/** A sign-in request is read once: a failure (expired, answered) is final and the answer never changes. */
export const signInRequestQuery = { retry: false, refetchOnWindowFocus: false, staleTime: Number.POSITIVE_INFINITY };

export function interactionQueryOptions(uid: string) {
  return queryOptions({
    queryKey: ["oidc-interaction", uid],
    queryFn: () => getInteraction(uid),
    ...signInRequestQuery,
  });
}

export function useInteraction(uid: string) {
  return useQuery(interactionQueryOptions(uid));
}
