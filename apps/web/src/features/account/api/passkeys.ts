import { type Passkey, passkeyListSchema, passkeyOptionsSchema, passkeySchema } from "@kpi-id/contracts";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useQuery } from "@tanstack/react-query";
import { apiFetch, apiJson } from "@/lib/api-client.ts";
import { accountQueryKey } from "./account-queries.ts";

export function usePasskeys() {
  return useQuery({
    queryKey: [...accountQueryKey, "passkeys"],
    queryFn: async () =>
      (await apiJson("/api/account/passkeys", { failure: "Failed to load passkeys" }, passkeyListSchema)).passkeys,
  });
}

const post = (path: string, body: object = {}) => ({ method: "POST" as const, body, failure: `Failed: ${path}` });

/**
 * Adds a passkey: the server's creation options (it wants a recent sign-in first), the browser's
 * prompt, the answer back with the person's name for it. The WebAuthn code loads only now.
 */
export async function addPasskey(name: string): Promise<Passkey> {
  const { options } = await apiJson(
    "/api/account/passkeys/options",
    post("/api/account/passkeys/options"),
    passkeyOptionsSchema,
  );
  const { startRegistration } = await import("@simplewebauthn/browser");
  // The server built these with @simplewebauthn/server: the shape this function takes.
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return apiJson(
    "/api/account/passkeys",
    post("/api/account/passkeys", { name: name.trim(), response }),
    passkeySchema,
  );
}

export const removePasskey = (id: string) =>
  apiFetch("/api/account/passkeys/remove", post("/api/account/passkeys/remove", { id }));
