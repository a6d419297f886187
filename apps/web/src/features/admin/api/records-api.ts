import { type AuditFilters, auditPageSchema, importReportSchema } from "@kpi-id/contracts";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { consoleKey } from "./admin-api.ts";

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

/** Bytes as base64, in slices so a megabyte does not overflow the argument list of fromCharCode. */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/** A dry run or an apply of a CSV file; the server reads the bytes (their encoding is its check). */
export function useImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, mode }: { file: File; mode: "dry-run" | "apply" }) =>
      apiJson(
        `/api/admin/import/${mode}`,
        {
          method: "POST",
          body: { file: base64Of(new Uint8Array(await file.arrayBuffer())) },
          failure: "The import failed",
        },
        importReportSchema,
      ),
    onSettled: (_report, _error, { mode }) =>
      mode === "apply" ? queryClient.invalidateQueries({ queryKey: consoleKey }) : undefined,
  });
}
