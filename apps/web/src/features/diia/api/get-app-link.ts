import type { DiiaAppLink } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

/** A deep link lives about three minutes on Diia's side; a fresh one every two. */
export const QR_REFRESH_INTERVAL_MS = 120_000;

export function getAppLink(): Promise<DiiaAppLink> {
  return apiJson("/api/diia/app-link", { failure: "Failed to authenticate" }, ownAnswer<DiiaAppLink>());
}

/** Fetched once per code; the sign-in loop decides when the next code is due. */
export function useAppLink(active: boolean) {
  return useQuery({
    queryKey: ["diia", "app-link"],
    queryFn: getAppLink,
    enabled: active,
    refetchOnWindowFocus: false,
    staleTime: 0,
    gcTime: 0,
  });
}
