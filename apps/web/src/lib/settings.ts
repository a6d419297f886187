import { type PublicSettings, publicSettingsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "./api-client.ts";

export function getSettings(): Promise<PublicSettings> {
  return apiJson("/api/settings", { failure: "Failed to load settings" }, publicSettingsSchema);
}

/** Deployment settings change only with a restart; read them once per page load. */
export function useSettings() {
  return useQuery({ queryKey: ["settings"], queryFn: getSettings, staleTime: Number.POSITIVE_INFINITY });
}
