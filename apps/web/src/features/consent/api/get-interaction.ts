import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "@/lib/api-client.ts";

export const interactionSchema = z.object({
  application: z.object({ title: z.string(), description: z.string() }),
  scopes: z.array(z.string()),
  person: z.object({ name: z.string() }),
});
export type InteractionDetails = z.infer<typeof interactionSchema>;

/** What the application asks for; needs the KPI ID session and the interaction cookie. */
export function getInteraction(uid: string): Promise<InteractionDetails> {
  return apiJson(
    `/api/oidc/interaction/${encodeURIComponent(uid)}/details`,
    { failure: "Failed to load the sign-in request" },
    interactionSchema,
  );
}

export function interactionQueryOptions(uid: string) {
  return queryOptions({
    queryKey: ["oidc-interaction", uid],
    queryFn: () => getInteraction(uid),
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useInteraction(uid: string) {
  return useQuery(interactionQueryOptions(uid));
}
