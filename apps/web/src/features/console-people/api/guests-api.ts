import { adminGuestsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

/** The console's guests, by sponsor (username or id) and unit (the units below it too). */
export function useAdminGuests(filter: { sponsor?: string; unit?: string }) {
  const query = new URLSearchParams();
  if (filter.sponsor) query.set("sponsor", filter.sponsor);
  if (filter.unit) query.set("unit", filter.unit);
  return useQuery({
    queryKey: [...consoleKey, "guests", filter.sponsor ?? "", filter.unit ?? ""],
    queryFn: () => apiJson(`/api/admin/guests?${query}`, { failure: "Failed to load guests" }, adminGuestsSchema),
  });
}
