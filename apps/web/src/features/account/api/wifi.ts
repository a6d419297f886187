import { type CreatedWifiPassword, createdWifiPasswordSchema, wifiPasswordsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { ApiError, apiFetch, apiJson } from "@/lib/api-client.ts";
import { accountQueryKey } from "./account-queries.ts";

/** The person's Wi-Fi passwords; null when the service has no RADIUS server (the section is then not shown). */
export function useWifiPasswords() {
  return useQuery({
    queryKey: [...accountQueryKey, "wifi"],
    queryFn: async () => {
      try {
        return await apiJson("/api/account/wifi", { failure: "Failed to load Wi-Fi passwords" }, wifiPasswordsSchema);
      } catch (error) {
        if (error instanceof ApiError && error.code === "wifi.not_configured") return null;
        throw error;
      }
    },
  });
}

export const createWifiPassword = (name: string): Promise<CreatedWifiPassword> =>
  apiJson(
    "/api/account/wifi",
    { method: "POST", body: { name: name.trim() }, failure: "Failed to create a Wi-Fi password" },
    createdWifiPasswordSchema,
  );

export const revokeWifiPassword = (id: string) =>
  apiFetch(`/api/account/wifi/${encodeURIComponent(id)}/revoke`, {
    method: "POST",
    body: {},
    failure: "Failed to revoke a Wi-Fi password",
  });

export const renameWifiPassword = (id: string, name: string) =>
  apiFetch(`/api/account/wifi/${encodeURIComponent(id)}/name`, {
    method: "POST",
    body: { name: name.trim() },
    failure: "Failed to rename a Wi-Fi password",
  });

/** What a phone's camera reads to join: the ZXing Wi-Fi format with its EAP fields (Android 10 and later). */
export function wifiQrText(ssid: string, anonymousIdentity: string, identity: string, password: string): string {
  const quoted = (value: string) => value.replace(/([\\;,:"])/g, "\\$1");
  return `WIFI:T:WPA2-EAP;S:${quoted(ssid)};E:TTLS;PH2:PAP;A:${quoted(anonymousIdentity)};I:${quoted(identity)};P:${quoted(password)};;`;
}
