import { adminWifiSchema, wifiStatsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { askedByScreen, askedUnlessRefused, consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

/** Where a person's Wi-Fi answer is kept: an erasure reads every answer again but this one (person-erasure.tsx). */
export const personWifiKey = (id: string) => [...consoleKey, "person", id, "wifi"] as const;

/**
 * A person's Wi-Fi devices and whether their Wi-Fi is off; not asked while `enabled` is false, nor again once
 * refused for good (a helpdesk operator on an admin's page, an erased person). The person screen asks, and its
 * section reads that answer (`asked`, see `askedByScreen`).
 */
export function usePersonWifi(id: string, { enabled = true, asked = false } = {}) {
  return useQuery({
    queryKey: personWifiKey(id),
    queryFn: () => apiJson(`/api/admin/people/${id}/wifi`, { failure: "Failed to load Wi-Fi" }, adminWifiSchema),
    enabled: askedUnlessRefused(enabled),
    ...askedByScreen(asked),
  });
}

/** Wi-Fi sign-ins per day and refusals by reason (the last 14 days). */
export function useWifiStats() {
  return useQuery({
    queryKey: [...consoleKey, "wifi-stats"],
    queryFn: () => apiJson("/api/admin/wifi/stats", { failure: "Failed to load Wi-Fi figures" }, wifiStatsSchema),
  });
}
