import type { DeveloperApplication, DeveloperApplicationSummary } from "@kpi-id/contracts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import { findUserById } from "../users/queries.ts";
import { latestChange } from "./changes.ts";
import { shownIcon } from "./icons.ts";
import { pendingInvitations } from "./invitations.ts";
import { peopleOf } from "./people.ts";
import { latestReview } from "./review.ts";
import { secretsOf } from "./secrets.ts";

export function applicationSummary(row: ApplicationRow): DeveloperApplicationSummary {
  return {
    id: row.id,
    title: row.title,
    titleEn: row.title_en,
    iconUrl: shownIcon(row.icon_url),
    lifecycle: row.lifecycle,
    suspended: row.suspended_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

/** What an operator's review approved about the application, as the developers' page and the review queue show it. */
export function reviewedValues(row: ApplicationRow) {
  return {
    title: row.title,
    titleEn: row.title_en,
    description: row.description,
    descriptionEn: row.description_en,
    homePageUrl: row.home_page_url,
    privacyPolicyUrl: row.privacy_policy_url,
    callbackUrls: [row.callback_url, ...row.extra_callback_urls].filter(Boolean),
    redirectUris: row.redirect_uris,
    scopes: row.allowed_scopes,
  };
}

/** Whether the operators' answers reach this person by mail: a confirmed address, as notifyOwners needs. */
async function hasConfirmedAddress(db: Db, userId: string): Promise<boolean> {
  const person = await findUserById(db, userId);
  return person !== undefined && verifiedAddressOf(person) !== undefined;
}

/** Everything the owner sees about the application; never the secret (only its hash is kept). */
export async function applicationDetail(
  db: Db,
  row: ApplicationRow,
  viewerId: string,
  now = new Date(),
): Promise<DeveloperApplication> {
  const [owners, testers, invitations, review, pendingChange, secrets, mailReachable] = await Promise.all([
    peopleOf(db, row.id, "owner", viewerId),
    peopleOf(db, row.id, "tester", viewerId),
    pendingInvitations(db, row.id, new Date()),
    latestReview(db, row.id),
    latestChange(db, row),
    secretsOf(db, row, now),
    hasConfirmedAddress(db, viewerId),
  ]);
  return {
    ...applicationSummary(row),
    ...reviewedValues(row),
    name: row.name,
    owners,
    testers,
    invitations,
    review,
    pendingChange,
    clientType: row.client_type,
    deviceFlow: row.oidc_device_flow,
    secrets,
    mailReachable,
  };
}
