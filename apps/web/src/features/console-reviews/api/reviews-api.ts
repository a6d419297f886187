import {
  type ReviewDecision,
  reviewActionResultSchema,
  reviewQueueSchema,
  type SuspensionRequest,
} from "@kpi-id/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

/** The console's review queue (applications registered on the developers' page) and suspension of any application. */

export function useReviewQueue() {
  return useQuery({
    queryKey: [...consoleKey, "reviews"],
    queryFn: () => apiJson("/api/admin/reviews", { failure: "Failed to load the review queue" }, reviewQueueSchema),
    select: (answer) => answer.reviews,
  });
}

/** Approve or reject one request; every console answer is read again after it. */
export function useDecideReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ applicationId, decision }: { applicationId: string; decision: ReviewDecision }) =>
      apiJson(
        `/api/admin/reviews/${applicationId}`,
        { method: "POST", body: decision, failure: "Failed to decide the review" },
        reviewActionResultSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKey }),
  });
}

export function useSuspension(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SuspensionRequest) =>
      apiJson(
        `/api/admin/applications/${applicationId}/suspension`,
        { method: "POST", body: request, failure: "Failed to change the suspension" },
        reviewActionResultSchema,
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: consoleKey });
    },
  });
}
