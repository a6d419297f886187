import {
  type ConsentAnswer,
  type ConsentOutcome,
  consentOutcomeSchema,
  type SamlConsentDetails,
  samlConsentDetailsSchema,
  samlConsentPath,
} from "@kpi-id/contracts";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { signInRequestQuery } from "./get-interaction.ts";

const pathOf = (id: string) => `${samlConsentPath}/${encodeURIComponent(id)}`;

/** What a SAML service provider would receive; needs the KPI ID session. */
export function getSamlConsent(id: string): Promise<SamlConsentDetails> {
  return apiJson(pathOf(id), { failure: "Failed to load the sign-in request" }, samlConsentDetailsSchema);
}

export function samlConsentQueryOptions(id: string) {
  return queryOptions({ queryKey: ["saml-consent", id], queryFn: () => getSamlConsent(id), ...signInRequestQuery });
}

export function useSamlConsent(id: string) {
  return useQuery(samlConsentQueryOptions(id));
}

/** Allow or Deny; the answer is a same-origin path that posts the SP its answer. */
export function answerSamlConsent(id: string, allow: boolean): Promise<ConsentOutcome> {
  const body: ConsentAnswer = { allow };
  return apiJson(
    pathOf(id),
    { method: "POST", body, failure: "Failed to answer the sign-in request" },
    consentOutcomeSchema,
  );
}

export function useAnswerSamlConsent(id: string) {
  return useMutation({
    mutationFn: (allow: boolean) => answerSamlConsent(id, allow),
    onSuccess: ({ redirectTo }) => browser.assign(redirectTo),
  });
}
