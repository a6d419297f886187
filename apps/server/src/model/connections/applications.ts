// The applications a person is connected to (issue 76): this area owns no table; it asks OpenID Connect's grants
// (model/oidc), the consents (model/access) and the applications' titles (model/apps), an area above all three, as
// access sits below applications and OpenID Connect.
import type { ConnectedApplication, Language } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { consentsGivenBy } from "../access/consents.ts";
import { applicationTitles } from "../apps/listed.ts";
import { liveGrantsOf } from "../oidc/grants.ts";

/** Scopes as a space-separated OpenID Connect string, or nothing. */
const scopesOf = (scope: string | null) => (scope ?? "").split(" ").filter(Boolean);

/**
 * The applications this person signed in to through OpenID Connect and may still read from:
 * a live grant (tokens a session holds) or a remembered consent, with the scopes either holds;
 * and those they allowed over the ticket exchange, with what each receives (issue 56).
 */
export async function connectedApplicationsOf(
  db: Db,
  userId: string,
  now: Date,
  language: Language = "uk",
): Promise<ConnectedApplication[]> {
  const grants = await liveGrantsOf(db, userId, now);
  const consents = await consentsGivenBy(db, userId);
  const scopes = new Map<string, Set<string>>();
  const add = (applicationId: string, names: string[]) => {
    const held = scopes.get(applicationId) ?? new Set<string>();
    for (const name of names) held.add(name);
    scopes.set(applicationId, held);
  };
  for (const grant of grants) add(grant.applicationId, scopesOf(grant.scope));
  const ticketData = new Map<string, string[]>();
  for (const consent of consents) {
    if (consent.protocol === "oidc" && consent.until > now) add(consent.applicationId, consent.allowed);
    if (consent.protocol === "ticket") ticketData.set(consent.applicationId, consent.allowed);
  }
  for (const applicationId of ticketData.keys()) add(applicationId, []);
  if (scopes.size === 0) return [];
  const applications = await applicationTitles(db, [...scopes.keys()]);
  return applications.map((application) => ({
    id: application.id,
    // In the reader's language where the application has it, as on the apps page and the consent screen.
    title: (language === "en" && application.title_en) || application.title,
    scopes: [...(scopes.get(application.id) ?? [])].sort(),
    ...(ticketData.has(application.id) && { ticketData: ticketData.get(application.id) }),
  }));
}
