import {
  type DeviceContinue,
  type DeviceForm,
  type DeviceRequest,
  deviceFormSchema,
  deviceRequestSchema,
  oidcDevicePath,
} from "@kpi-id/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";

const formQueryKey = ["device-form"] as const;

/** This browser's form token at the provider (it makes a new one for each form it hands out). */
export function getDeviceForm(): Promise<DeviceForm> {
  return apiJson(oidcDevicePath, { failure: "Failed to open the device sign-in" }, deviceFormSchema);
}

export function useDeviceForm(enabled: boolean) {
  return useQuery({
    queryKey: formQueryKey,
    queryFn: getDeviceForm,
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The request a typed code stands for; a wrong, expired or used code is an ApiError with its code. */
export function lookUpDeviceCode(xsrf: string, userCode: string): Promise<DeviceRequest> {
  return apiJson(
    oidcDevicePath,
    {
      method: "POST",
      form: new URLSearchParams({ xsrf, user_code: userCode }),
      failure: "Failed to check the code",
    },
    deviceRequestSchema,
  );
}

export function useLookUpDeviceCode() {
  return useMutation({
    mutationFn: ({ xsrf, userCode }: { xsrf: string; userCode: string }) => lookUpDeviceCode(xsrf, userCode),
  });
}

/** A person not signed in: the sign-in they are about to make comes back to this page with the code. */
export function continueToDevice(userCode: string | undefined): Promise<{ ok: true }> {
  const body: DeviceContinue = userCode ? { userCode } : {};
  return apiJson(
    "/api/device/continue",
    { method: "POST", body, failure: "Failed to start signing in" },
    { parse: (value) => value as { ok: true } },
  );
}

export { formQueryKey as deviceFormQueryKey };
