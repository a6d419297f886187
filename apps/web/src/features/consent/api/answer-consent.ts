import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "@/lib/api-client.ts";

const answerSchema = z.object({ redirectTo: z.string() });

/** Allow or Deny; the answer says where the browser goes: back to the application. */
export function answerConsent(uid: string, allow: boolean): Promise<{ redirectTo: string }> {
  return apiJson(
    `/api/oidc/interaction/${encodeURIComponent(uid)}/consent`,
    { method: "POST", body: { allow }, failure: "Failed to answer the sign-in request" },
    answerSchema,
  );
}

export function useAnswerConsent(uid: string) {
  return useMutation({
    mutationFn: (allow: boolean) => answerConsent(uid, allow),
    // The server answers with a same-origin path into the provider, which then redirects to the application.
    onSuccess: ({ redirectTo }) => window.location.assign(redirectTo),
  });
}
