import { keyRotationSchema, signingKeysSchema } from "@kpi-id/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

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
