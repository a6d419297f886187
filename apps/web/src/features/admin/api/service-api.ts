import { keyRotationSchema, serviceStatusSchema, signingKeysSchema } from "@kpi-id/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { consoleKey } from "./admin-api.ts";

export function useSigningKeys() {
  return useQuery({
    queryKey: [...consoleKey, "keys"],
    queryFn: () => apiJson("/api/admin/keys", { failure: "Failed to load the signing keys" }, signingKeysSchema),
  });
}

/** Rotates the OpenID Connect signing key (as `keys rotate`), then the key list is read again. */
export function useRotateSigningKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiJson(
        "/api/admin/keys/rotate",
        { method: "POST", body: {}, failure: "Failed to rotate the signing key" },
        keyRotationSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKey }),
  });
}

export function useServiceStatus(enabled = true) {
  return useQuery({
    queryKey: [...consoleKey, "service"],
    enabled,
    queryFn: () =>
      apiJson("/api/admin/service", { failure: "Failed to load the service's state" }, serviceStatusSchema),
  });
}
