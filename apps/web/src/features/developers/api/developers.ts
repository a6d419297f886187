import {
  type DeveloperApplicationInput,
  type DeveloperApplicationUpdate,
  type DeveloperRole,
  developerApplicationSchema,
  developerApplicationsSchema,
  developerCredentialsSchema,
  developerMembershipsSchema,
  type IconUpload,
  iconUploadResultSchema,
  integrationHealthSchema,
  type ReviewRequest,
  signOutEveryoneResultSchema,
} from "@kpi-id/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

/** Every answer of the developers' page sits under this key, so one change refreshes them all. */
export const developersQueryKey = ["developers"] as const;
const base = "/api/developers/applications";

export function useMyApplications(enabled = true) {
  return useQuery({
    queryKey: [...developersQueryKey, "list"],
    queryFn: () => apiJson(base, { failure: "Failed to load your applications" }, developerApplicationsSchema),
    enabled,
  });
}

export function useMyApplication(id: string) {
  return useQuery({
    queryKey: [...developersQueryKey, "application", id],
    queryFn: () => apiJson(`${base}/${id}`, { failure: "Failed to load the application" }, developerApplicationSchema),
    retry: false,
  });
}

export function useIntegrationHealth(id: string) {
  return useQuery({
    queryKey: [...developersQueryKey, "health", id],
    queryFn: () =>
      apiJson(`${base}/${id}/health`, { failure: "Failed to load the health view" }, integrationHealthSchema),
  });
}

const postJson = <T>(path: string, body: object, schema: { parse: (value: unknown) => T }) =>
  apiJson(path, { method: "POST", body, failure: `Failed: ${path}` }, schema);

export const registerApplication = (input: DeveloperApplicationInput) =>
  postJson(base, input, developerCredentialsSchema);
export const updateApplication = (id: string, changes: DeveloperApplicationUpdate) =>
  postJson(`${base}/${id}`, changes, developerApplicationSchema);
export const rotateSecret = (id: string, overlapHours: number) =>
  postJson(`${base}/${id}/secret`, { overlapHours }, developerCredentialsSchema);
export const endPreviousSecret = (id: string) =>
  postJson(`${base}/${id}/secret/end-previous`, {}, developerApplicationSchema);
export const setDeviceFlow = (id: string, enabled: boolean) =>
  postJson(`${base}/${id}/device-flow`, { enabled }, developerApplicationSchema);
export const signEveryoneOut = (id: string) =>
  postJson(`${base}/${id}/sign-everyone-out`, {}, signOutEveryoneResultSchema);
export const deleteApplication = (id: string, confirm: string) =>
  postJson(`${base}/${id}/delete`, { confirm }, signOutEveryoneResultSchema);
export const requestReview = (id: string, request: ReviewRequest) =>
  postJson(`${base}/${id}/review`, request, developerApplicationSchema);
export const withdrawChange = (id: string, changeId: string) =>
  postJson(`${base}/${id}/change/withdraw`, { changeId }, developerApplicationSchema);
export const uploadIcon = (id: string, upload: IconUpload) =>
  postJson(`${base}/${id}/icon`, upload, iconUploadResultSchema);
/** An invitation: the answer is the same whether or not anyone holds the name (issue 56). */
export const invitePerson = (id: string, role: "owners" | "testers", person: string) =>
  postJson(`${base}/${id}/${role}`, { person }, developerApplicationSchema);
export const removePerson = (id: string, role: "owners" | "testers", username: string) =>
  postJson(`${base}/${id}/${role}/remove`, { username }, developerApplicationSchema);
export const withdrawInvitation = (id: string, invitation: string) =>
  postJson(`${base}/${id}/invitations/withdraw`, { invitation }, developerApplicationSchema);

const invitations = "/api/developers/invitations";

/** Invitations to the signed-in person and the applications they test. */
export function useMyMemberships() {
  return useQuery({
    queryKey: [...developersQueryKey, "memberships"],
    queryFn: () => apiJson(invitations, { failure: "Failed to load your invitations" }, developerMembershipsSchema),
  });
}

export const answerInvitation = (invitation: string, answer: "accept" | "decline") =>
  postJson(`${invitations}/${invitation}/${answer}`, {}, developerMembershipsSchema);
export const leaveApplication = (id: string, role: DeveloperRole) =>
  postJson(`${base}/${id}/leave`, { role }, developerMembershipsSchema);

/**
 * One change on the page: the page's answers reload after it, a refusal is said in a toast, or, with
 * `toast: false`, left to the caller to show beside its form (`error` of the answer).
 */
export function useDeveloperChange<I, O>(
  change: (input: I) => Promise<O>,
  onDone?: (answer: O) => void,
  { toast = true }: { toast?: boolean } = {},
) {
  const queryClient = useQueryClient();
  const describeError = useErrorMessage();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer) => onDone?.(answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: developersQueryKey }),
    onError: (error) => {
      if (toast) notify("error", describeError(error, "developers:errors.generic").message);
    },
  });
}
