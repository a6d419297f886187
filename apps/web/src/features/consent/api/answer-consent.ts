import { type ConsentAnswer, type ConsentOutcome, consentOutcomeSchema, oidcInteractionPath } from "@kpi-id/contracts";
import { useMutation } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";

/** Allow or Deny; the answer says where the browser goes: back to the application. */
export function answerConsent(uid: string, allow: boolean): Promise<ConsentOutcome> {
  const body: ConsentAnswer = { allow };
  return apiJson(
    `${oidcInteractionPath}/${encodeURIComponent(uid)}/consent`,
    { method: "POST", body, failure: "Failed to answer the sign-in request" },
    consentOutcomeSchema,
  );
}

export function useAnswerConsent(uid: string) {
  return useMutation({
    mutationFn: (allow: boolean) => answerConsent(uid, allow),
    // The server answers with a same-origin path into the provider, which then redirects to the application.
    onSuccess: ({ redirectTo }) => browser.assign(redirectTo),
  });
}
