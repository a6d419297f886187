import {
  recoveryCodesSchema,
  secondFactorStatusSchema,
  totpConfirmResponseSchema,
  totpSetupSchema,
} from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiFetch, apiJson } from "@/lib/api-client.ts";
import { accountQueryKey } from "./account-queries.ts";

export function useSecondFactorStatus() {
  return useQuery({
    queryKey: [...accountQueryKey, "second-factor"],
    queryFn: () =>
      apiJson("/api/account/second-factor", { failure: "Failed to load the second factor" }, secondFactorStatusSchema),
  });
}

const request = (path: string, body: object = {}) => ({ method: "POST" as const, body, failure: `Failed: ${path}` });

export const startTotpSetup = () => apiJson("/api/account/totp", request("/api/account/totp"), totpSetupSchema);
export const confirmTotp = (code: string) =>
  apiJson("/api/account/totp/confirm", request("/api/account/totp/confirm", { code }), totpConfirmResponseSchema);
export const newRecoveryCodes = () =>
  apiJson("/api/account/recovery-codes", request("/api/account/recovery-codes"), recoveryCodesSchema);
export const turnOffTotp = () =>
  apiFetch("/api/account/totp/remove", { method: "POST", body: {}, failure: "Failed to turn the authenticator off" });
