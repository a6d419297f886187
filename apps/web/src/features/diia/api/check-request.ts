import type { DiiaCheckRequest } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

export const CHECK_REQUEST_INTERVAL_MS = 3000;

export function checkRequest(requestId: string): Promise<DiiaCheckRequest> {
  const query = new URLSearchParams({ requestId });
  return apiJson(
    `/api/diia/check-request?${query}`,
    { failure: "Failed to authenticate" },
    ownAnswer<DiiaCheckRequest>(),
  );
}

/** Polled only while there is a request to ask about and nobody is signing in yet. */
export function useCheckRequest(
  requestId: string | undefined,
  active: boolean,
  intervalMs = CHECK_REQUEST_INTERVAL_MS,
) {
  const enabled = active && requestId !== undefined;
  return useQuery({
    queryKey: ["diia", "check-request", requestId],
    queryFn: () => checkRequest(requestId ?? ""),
    enabled,
    refetchInterval: enabled ? intervalMs : false,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}
