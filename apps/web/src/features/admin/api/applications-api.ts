import {
  type ApplicationUpdateRequest,
  adminActionResultSchema,
  adminApplicationDetailSchema,
  applicationAccessSchema,
  applicationPeoplePageSchema,
  type BulkGrantReport,
  bulkGrantReportSchema,
  type CasServiceRequest,
  casServicesSchema,
  type NewAccessRuleRequest,
} from "@kpi-id/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { askedByScreen, consoleKey } from "./admin-api.ts";

/** The console's application screen: one application's settings, rules, who has access, bulk grant. */

const base = (id: string) => `/api/admin/applications/${id}`;

export function useApplication(id: string) {
  return useQuery({
    queryKey: [...consoleKey, "application", id],
    queryFn: () => apiJson(base(id), { failure: "Failed to load the application" }, adminApplicationDetailSchema),
  });
}

/** The access rules, exclusions and count; `asked`: the application screen asks, its sections read (askedByScreen). */
export function useApplicationAccess(id: string, asked = false) {
  return useQuery({
    queryKey: [...consoleKey, "application", id, "access"],
    queryFn: () => apiJson(`${base(id)}/access`, { failure: "Failed to load the rules" }, applicationAccessSchema),
    ...askedByScreen(asked),
  });
}

export function useApplicationPeople(id: string, q: string, page: number) {
  const params = new URLSearchParams();
  if (q.trim()) params.set("q", q.trim());
  if (page > 1) params.set("page", String(page));
  return useQuery({
    queryKey: [...consoleKey, "application", id, "people", params.toString()],
    queryFn: () =>
      apiJson(
        `${base(id)}/people?${params}`,
        { failure: "Failed to load who has access" },
        applicationPeoplePageSchema,
      ),
    placeholderData: keepPreviousData,
  });
}

/** A POST of the application screen; every console answer is read again after it. */
function useApplicationPost<Input, Answer>(path: string, reader: { parse(value: unknown): Answer }, failure: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => apiJson(path, { method: "POST", body: input, failure }, reader),
    // Not awaited: the answers are read again after the caller's onSuccess has run, since the settings form
    // remounts on the new answer and a remounted form's mutate callbacks would never be called.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: consoleKey });
    },
  });
}

export function useUpdateApplication(id: string) {
  return useApplicationPost<ApplicationUpdateRequest, unknown>(
    base(id),
    adminApplicationDetailSchema,
    "Failed to save the application",
  );
}

export function useAddRule(id: string) {
  return useApplicationPost<NewAccessRuleRequest, unknown>(
    `${base(id)}/rules`,
    adminActionResultSchema,
    "Failed to add the rule",
  );
}

export function useRemoveRule(id: string) {
  return useApplicationPost<{ ruleId: string }, unknown>(
    `${base(id)}/rules/remove`,
    adminActionResultSchema,
    "Failed to remove the rule",
  );
}

export function useExclude(id: string) {
  return useApplicationPost<{ username: string }, unknown>(
    `${base(id)}/exclusions`,
    adminActionResultSchema,
    "Failed to exclude the person",
  );
}

export function useLiftExclusion(id: string) {
  return useApplicationPost<{ userId: string }, unknown>(
    `${base(id)}/exclusions/remove`,
    adminActionResultSchema,
    "Failed to lift the exclusion",
  );
}

export function useBulkGrant(id: string) {
  return useApplicationPost<{ list: string }, BulkGrantReport>(
    `${base(id)}/access/bulk-grant`,
    bulkGrantReportSchema,
    "The bulk grant failed",
  );
}

/**
 * The application's CAS services (docs/cas.md) and the server URL its CAS clients are given; `asked`: the
 * application screen asks, its section reads (askedByScreen).
 */
export function useCasServices(id: string, asked = false) {
  return useQuery({
    queryKey: [...consoleKey, "application", id, "cas"],
    queryFn: () =>
      apiJson(`${base(id)}/cas-services`, { failure: "Failed to load the CAS services" }, casServicesSchema),
    ...askedByScreen(asked),
  });
}

export function useSetCasService(id: string) {
  return useApplicationPost<CasServiceRequest, unknown>(
    `${base(id)}/cas-services`,
    casServicesSchema,
    "Failed to save the CAS service",
  );
}

export function useRemoveCasService(id: string) {
  return useApplicationPost<{ url: string }, unknown>(
    `${base(id)}/cas-services/remove`,
    casServicesSchema,
    "Failed to remove the CAS service",
  );
}
