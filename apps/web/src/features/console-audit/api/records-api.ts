import { type AuditFilters, auditPageSchema } from "@kpi-id/contracts";
import { useInfiniteQuery } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

/** The filters as a query string, the same for the screen's pages, its URL and the export. */
export function auditSearch(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (typeof value === "string" && value.trim()) params.set(name, value.trim());
  }
  return params;
}

const auditPageSize = 50;

export function useAuditEvents(filters: AuditFilters) {
  const search = auditSearch(filters);
  return useInfiniteQuery({
    queryKey: [...consoleKey, "audit", search.toString()],
    initialPageParam: "",
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams(search);
      params.set("limit", String(auditPageSize));
      if (pageParam) params.set("after", pageParam);
      return apiJson(`/api/admin/audit?${params}`, { failure: "Failed to load the audit log" }, auditPageSchema);
    },
    getNextPageParam: (page) => page.next ?? undefined,
  });
}
