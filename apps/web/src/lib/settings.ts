import type { PublicSettings } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "./api-client.ts";
import { bootData } from "./boot-data.ts";

export function getSettings(): Promise<PublicSettings> {
  return apiJson("/api/settings", { failure: "Failed to load settings" }, ownAnswer<PublicSettings>());
}

export const settingsQueryKey = ["settings"] as const;

/** Deployment settings change only with a restart; read them once per page load. */
export function useSettings() {
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: getSettings,
    // The page brings them; only a page without them (development) asks the server.
    initialData: bootData().settings,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
