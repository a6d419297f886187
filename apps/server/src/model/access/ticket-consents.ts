import type { ApplicationPublisher, TicketConsentDatum } from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";

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

/**
 * Who stands behind a community application, for the person deciding: its pages and its owners' names with the
 * address each confirmed (none unconfirmed: an address nobody proved is nobody's contact).
 */
export async function publisherOf(
  db: Db,
  application: Pick<ApplicationRow, "id" | "home_page_url" | "privacy_policy_url">,
): Promise<ApplicationPublisher> {
  const owners = await db
    .selectFrom("application_owners")
    .innerJoin("users", "users.id", "application_owners.user_id")
    .select(["users.full_name", "users.email", "users.verified_email"])
    .where("application_owners.application_id", "=", application.id)
    .orderBy("application_owners.added_at")
    .execute();
  return {
    homePageUrl: application.home_page_url,
    privacyPolicyUrl: application.privacy_policy_url,
    owners: owners.map((owner) => ({ name: owner.full_name, email: verifiedAddressOf(owner) ?? "" })),
  };
}
