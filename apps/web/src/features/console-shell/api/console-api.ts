import { adminActionResultSchema, adminApplicationsSchema, adminMeSchema, type ErrorCode } from "@kpi-id/contracts";
import { hashKey, type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { ApiError, apiJson } from "@/lib/api-client.ts";

/** Every console answer sits under this key, so one change refreshes what shows it. */
export const consoleKey = ["admin"] as const;

/**
 * For a section's query that its screen has asked already (answers-first.tsx: the screen asks beside its own answer
 * and waits for it): no second request when the section mounts. An answer counts as stale at once, so a section
 * mounted after it came in (its screen's own answer was the later one) asked again on mount; a failed answer was
 * asked again too (TanStack's retryOnMount), and a refusal that answers the same every time (a helpdesk operator on
 * an admin's Wi-Fi: 403) was sent twice. The screen's query, mounted with it, still reads a stale answer again when
 * the screen opens.
 */
export const askedByScreen = (asked: boolean) => (asked ? { refetchOnMount: false, retryOnMount: false } : {});

/** Refusals a console read gets again every time it asks: no such person or application, or erased. */
const goneCodes: ReadonlySet<ErrorCode> = new Set(["app.not_found", "admin.person_not_found", "admin.person_erased"]);

/**
 * Refusals that stand while the roles they were answered under stand: not for the operator's roles, or the person
 * holds a role above them. A promotion of either side changes the answer (useRoleRefusalsForgotten).
 */
const refusedForRoleCodes: ReadonlySet<ErrorCode> = new Set(["admin.person_outranks_operator", "admin.forbidden"]);

const hasCode = (codes: ReadonlySet<ErrorCode>) => (error: unknown) =>
  error instanceof ApiError && error.code !== undefined && codes.has(error.code);

const gone = hasCode(goneCodes);

export const refusedForRole = hasCode(refusedForRoleCodes);

export const refusedForGood = (error: unknown) => gone(error) || refusedForRole(error);

/**
 * A console read's `enabled`: asked while `asked`, and never again once its answer is a refusal for good, while
 * that answer is kept (TanStack's cache, 5 minutes after the screen closed; a refusal for a role until the roles
 * change, useRoleRefusalsForgotten). Each console action reads every answer again, and a screen opening again reads
 * its stale ones: a refused read was sent again each time and refused the same. A function of the query, so that its
 * own refusal stops it (a refetch would wipe the error it looked at).
 */
export const askedUnlessRefused =
  (asked = true) =>
  (query: { state: { error: unknown } }) =>
    asked && !refusedForGood(query.state.error);

/**
 * Forgets the refusals for a role under `queryKey` once `roles` change (not on their first answer, nor when the key
 * does: another person's screen), so that the reads they stopped are asked again: an operator promoted while the
 * console is open, or a person whose role changed, no longer keeps a screen refused until a reload.
 */
export function useRoleRefusalsForgotten(roles: readonly string[] | undefined, queryKey: QueryKey) {
  const queryClient = useQueryClient();
  const key = hashKey(queryKey);
  const rolesNow = roles ? [...roles].sort().join(",") : undefined;
  const before = useRef<{ key: string; roles: string }>(undefined);
  useEffect(() => {
    if (rolesNow === undefined) return;
    const changed = before.current?.key === key && before.current.roles !== rolesNow;
    before.current = { key, roles: rolesNow };
    if (!changed) return;
    void queryClient.resetQueries({
      // hashKey is the key as JSON (its objects' fields sorted): the key back, from a string the effect can depend on.
      queryKey: JSON.parse(key) as QueryKey,
      predicate: (query) => refusedForRole(query.state.error),
    });
  }, [key, rolesNow, queryClient]);
}

export function useOperator() {
  return useQuery({
    queryKey: [...consoleKey, "me"],
    queryFn: () => apiJson("/api/admin/me", { failure: "Failed to open the console" }, adminMeSchema),
    retry: false,
  });
}

export function useApplications(enabled = true) {
  return useQuery({
    queryKey: [...consoleKey, "applications"],
    queryFn: () =>
      apiJson("/api/admin/applications", { failure: "Failed to load applications" }, adminApplicationsSchema),
    select: (answer) => answer.applications,
    enabled,
  });
}

/** A console action: POST, then every console answer is read again. */
export function useConsoleAction<Input>(path: (input: Input) => string, body: (input: Input) => unknown = () => ({})) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) =>
      apiJson(
        path(input),
        { method: "POST", body: body(input), failure: "The action failed" },
        adminActionResultSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKey }),
  });
}
