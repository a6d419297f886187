import { type ImportJobView, type ImportMode, importJobSchema, latestImportJobSchema } from "@kpi-id/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

const importKey = [...consoleKey, "import"] as const;
// Often enough that the bar moves with the server's batches, seldom enough to cost nothing.
const pollMs = 1000;

/** Bytes as base64, in slices so a megabyte does not overflow the argument list of fromCharCode. */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/** The operator's newest import, so the page shows it again when they come back to it. */
export function useLatestImportJob() {
  return useQuery({
    queryKey: [...importKey, "latest"],
    queryFn: () =>
      apiJson("/api/admin/import/jobs/latest", { failure: "Failed to load the import" }, latestImportJobSchema),
  });
}

/** One job, polled while it runs; its problem lines (or all of them) once it ended. */
export function useImportJob(id: string | undefined, lines: "problems" | "all") {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...importKey, id, lines],
    enabled: id !== undefined,
    queryFn: async () => {
      const job = await apiJson(
        `/api/admin/import/jobs/${id}?lines=${lines}`,
        { failure: "Failed to load the import" },
        importJobSchema,
      );
      // An applied import changed people: the console's lists are stale once it ends.
      if (job.mode === "apply" && job.status !== "running")
        void queryClient.invalidateQueries({ queryKey: [...consoleKey, "people"] });
      return job;
    },
    // Polled while it runs; an error (the session ended, the job gone) stops the polling.
    refetchInterval: (query) =>
      query.state.status !== "error" && query.state.data?.status === "running" ? pollMs : false,
    // Switching between the problem lines and all of them keeps the job on screen while the other loads.
    placeholderData: keepPreviousData,
  });
}

/**
 * Starts a dry run or an apply of a CSV file; the server reads the bytes (their encoding is its
 * check). The answer is the job, running; the same file sent again joins it.
 */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, mode }: { file: File; mode: ImportMode }) =>
      apiJson(
        "/api/admin/import/jobs",
        {
          method: "POST",
          body: { file: base64Of(new Uint8Array(await file.arrayBuffer())), fileName: file.name.slice(0, 255), mode },
          failure: "The import failed",
        },
        importJobSchema,
      ),
    onSuccess: (job: ImportJobView) => queryClient.setQueryData([...importKey, job.id, "problems"], job),
  });
}

/** Stops a running job after the batch it is in. */
export function useCancelImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiJson(
        `/api/admin/import/jobs/${id}/cancel`,
        { method: "POST", body: {}, failure: "Failed to stop the import" },
        importJobSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: importKey }),
  });
}
