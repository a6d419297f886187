import type { ApplicationPublisher } from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import { peopleContacts } from "../users/for-lists.ts";

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
    .innerJoin(peopleContacts(db).as("owner"), "owner.id", "application_owners.user_id")
    .select(["owner.full_name", "owner.email", "owner.verified_email"])
    .where("application_owners.application_id", "=", application.id)
    .orderBy("application_owners.added_at")
    .execute();
  return {
    homePageUrl: application.home_page_url,
    privacyPolicyUrl: application.privacy_policy_url,
    owners: owners.map((owner) => ({ name: owner.full_name, email: verifiedAddressOf(owner) ?? "" })),
  };
}
