import { serviceStatusSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { consoleKey } from "./console-api.ts";

/** The service's state: the shell's notices (certificate, revocation) and the service screen read it. */
export function useServiceStatus(enabled = true) {
  return useQuery({
    queryKey: [...consoleKey, "service"],
    enabled,
    queryFn: () =>
      apiJson("/api/admin/service", { failure: "Failed to load the service's state" }, serviceStatusSchema),
  });
}
