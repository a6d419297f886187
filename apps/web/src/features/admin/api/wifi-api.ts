import { adminWifiSchema, wifiStatsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { askedByScreen, consoleKey } from "./admin-api.ts";

/**
 * A person's Wi-Fi devices and whether their Wi-Fi is off; not asked while `enabled` is false. The person screen
 * asks, and its section reads that answer (`asked`, see `askedByScreen`).
 */
export function usePersonWifi(id: string, { enabled = true, asked = false } = {}) {
  return useQuery({
    queryKey: [...consoleKey, "person", id, "wifi"],
    queryFn: () => apiJson(`/api/admin/people/${id}/wifi`, { failure: "Failed to load Wi-Fi" }, adminWifiSchema),
    enabled,
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
