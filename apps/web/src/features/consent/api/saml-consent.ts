import { samlConsentDetailsSchema, samlConsentPath } from "@kpi-id/contracts";
import { consentRequestApi } from "./consent-request.ts";

/** What a SAML service provider would receive (needs the KPI ID session), and the answer: a path that posts the SP its answer. */
const samlConsent = consentRequestApi("saml-consent", samlConsentPath, samlConsentDetailsSchema);

export const getSamlConsent = samlConsent.get;
export const samlConsentQueryOptions = samlConsent.queryOptions;
export const useSamlConsent = samlConsent.useDetails;
export const answerSamlConsent = samlConsent.answer;
export const useAnswerSamlConsent = samlConsent.useAnswer;
