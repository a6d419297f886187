import { ticketConsentDetailsSchema, ticketConsentPath } from "@kpi-id/contracts";
import { consentRequestApi } from "./consent-request.ts";

/**
 * What a community application's ticket would carry (needs the session of the person it waits for), and the
 * answer: the application's callback with a ticket, or the apps page (issue 56).
 */
const ticketConsent = consentRequestApi("ticket-consent", ticketConsentPath, ticketConsentDetailsSchema);

export const useTicketConsent = ticketConsent.useDetails;
export const useAnswerTicketConsent = ticketConsent.useAnswer;
