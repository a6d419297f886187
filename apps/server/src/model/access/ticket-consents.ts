import type { TicketConsentDatum } from "@kpi-id/contracts";
import type { ApplicationRow } from "../../platform/db/schema.ts";

type ConsentFacts = Pick<ApplicationRow, "first_party" | "community">;

/**
 * Whether an application is first-party: marked so by the operators (OpenID Connect, SAML) and not registered
 * on the developers' page. A community application is never first-party, whatever its flag says, so no
 * protocol hands it a person's identity without asking (issue 56).
 */
export function isFirstParty(application: ConsentFacts): boolean {
  return application.first_party && !application.community;
}

/**
 * Whether the ticket path asks the person before it issues a ticket: for every community application. The
 * operators' own ticket applications are the university's, registered by operators before any consent existed,
 * and keep their flow whatever their OpenID Connect flag (which decides only OpenID Connect's screen).
 */
export function ticketAsksConsent(application: Pick<ApplicationRow, "community">): boolean {
  return application.community;
}

/** What the ticket exchange would hand this application now, in the kinds the consent screen names. */
export function ticketDataOf(application: Pick<ApplicationRow, "release_tax_id">): TicketConsentDatum[] {
  const always: TicketConsentDatum[] = ["identifier", "name", "recordIds", "roles", "signInMethod"];
  return application.release_tax_id ? [...always, "taxId"] : always;
}
