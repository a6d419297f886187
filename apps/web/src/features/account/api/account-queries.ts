import {
  accountActivityListSchema,
  accountMethodsSchema,
  accountSessionsSchema,
  connectedApplicationsSchema,
} from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";

/** Every answer of the account page sits under this key, so one change refreshes them all. */
export const accountQueryKey = ["account"] as const;

export function useAccountSessions() {
  return useQuery({
    queryKey: [...accountQueryKey, "sessions"],
    queryFn: () => apiJson("/api/account/sessions", { failure: "Failed to load sessions" }, accountSessionsSchema),
    select: (answer) => answer.sessions,
  });
}

export function useAccountActivity() {
  return useQuery({
    queryKey: [...accountQueryKey, "activity"],
    queryFn: () => apiJson("/api/account/activity", { failure: "Failed to load activity" }, accountActivityListSchema),
    select: (answer) => answer.events,
  });
}

export function useAccountMethods() {
  return useQuery({
    queryKey: [...accountQueryKey, "methods"],
    queryFn: () => apiJson("/api/account/methods", { failure: "Failed to load methods" }, accountMethodsSchema),
  });
}

export function useConnectedApplications() {
  return useQuery({
    queryKey: [...accountQueryKey, "applications"],
    queryFn: () =>
      apiJson("/api/account/applications", { failure: "Failed to load applications" }, connectedApplicationsSchema),
    select: (answer) => answer.applications,
  });
}
