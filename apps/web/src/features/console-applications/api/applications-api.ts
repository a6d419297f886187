import {
  type ApplicationUnitRequest,
  type ApplicationUpdateRequest,
  adminActionResultSchema,
  adminApplicationDetailSchema,
  applicationAccessSchema,
  applicationPeoplePageSchema,
  applicationSecretSchema,
  type BulkGrantReport,
  bulkGrantReportSchema,
  type CasServiceRequest,
  casServicesSchema,
  type NewAccessRuleRequest,
  type NewApplicationRequest,
} from "@kpi-id/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { askedByScreen, askedUnlessRefused, consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

/** The console's application screen: one application's settings, rules, who has access, bulk grant. */

const base = (id: string) => `/api/admin/applications/${id}`;

/**
 * One application; an unknown id's 404 is kept rather than asked again (askedUnlessRefused), so that the screen
 * goes on knowing the application is not there while the answer would otherwise be read again.
 */
export function useApplication(id: string) {
  return useQuery({
    queryKey: [...consoleKey, "application", id],
    queryFn: () => apiJson(base(id), { failure: "Failed to load the application" }, adminApplicationDetailSchema),
    enabled: askedUnlessRefused(),
  });
}

/** How the application screen asks a section's answer beside the application, and how the section reads it. */
export interface SectionRead {
  /** False once the application is known not to be there: what is asked about it is refused the same. */
  enabled?: boolean;
  /** The screen asked already; the section reads its answer (askedByScreen). */
  asked?: boolean;
}

/** The access rules, exclusions and count; not asked again once refused for good (askedUnlessRefused). */
export function useApplicationAccess(id: string, { enabled = true, asked = false }: SectionRead = {}) {
  return useQuery({
    queryKey: [...consoleKey, "application", id, "access"],
    queryFn: () => apiJson(`${base(id)}/access`, { failure: "Failed to load the rules" }, applicationAccessSchema),
    enabled: askedUnlessRefused(enabled),
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

/** Assigns the application to a unit (null: central IT's, an admin's choice alone). */
export function useAssignUnit(id: string) {
  return useApplicationPost<ApplicationUnitRequest, unknown>(
    `${base(id)}/unit`,
    adminActionResultSchema,
    "Failed to assign the unit",
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
 * The application's CAS services (docs/cas.md) and the server URL its CAS clients are given; not asked again once
 * refused for good (askedUnlessRefused).
 */
export function useCasServices(id: string, { enabled = true, asked = false }: SectionRead = {}) {
  return useQuery({
    queryKey: [...consoleKey, "application", id, "cas"],
    queryFn: () =>
      apiJson(`${base(id)}/cas-services`, { failure: "Failed to load the CAS services" }, casServicesSchema),
    enabled: askedUnlessRefused(enabled),
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

export function useCreateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewApplicationRequest) =>
      apiJson(
        "/api/admin/applications",
        { method: "POST", body: input, failure: "Failed to register the application" },
        applicationSecretSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKey }),
  });
}

export function useRotateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiJson(
        `/api/admin/applications/${id}/rotate-secret`,
        { method: "POST", body: {}, failure: "Failed to rotate the secret" },
        applicationSecretSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKey }),
  });
}
