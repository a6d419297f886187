import { type AdminUnits, adminUnitsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { consoleKey } from "./console-api.ts";

export type ConsoleUnit = AdminUnits["units"][number];

/**
 * The units within the operator's reach (every unit for admin and helpdesk; a unit role's units and those below):
 * what the console's unit pickers offer, so nobody is offered a unit the server would refuse.
 */
export function useUnits(enabled = true) {
  return useQuery({
    queryKey: [...consoleKey, "units"],
    queryFn: () => apiJson("/api/admin/units", { failure: "Failed to load units" }, adminUnitsSchema),
    select: (answer) => answer.units,
    // The tree changes with an import or SCIM, rarely while a console screen is open.
    staleTime: 60_000,
    enabled,
  });
}
