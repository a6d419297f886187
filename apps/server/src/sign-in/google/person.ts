import { findUserByGoogleSubject, linkGoogleSubject } from "../../model/google/identities.ts";
import { findActiveUsersByEmail, markEmailVerified } from "../../model/users/method-lookups.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import type { GoogleIdentity } from "./client.ts";

function mustBeActive(user: User): User {
  if (user.status !== "active") throw new AppError("google.failed", { reason: "user.disabled" });
  return user;
}

function verifiedEmail(identity: GoogleIdentity): string {
  if (!identity.email) throw new AppError("google.failed", { reason: "google.no_email" });
  if (!identity.emailVerified) throw new AppError("google.failed", { reason: "google.email_unverified" });
  return identity.email;
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * Whether an account belongs to the university's own Google Workspace: Google says so (`hd`) and the
 * address is on one of its domains. A personal Google account holding a campus person's address
 * (a recycled mailbox, an address registered at Google by someone else) has no `hd` and fails.
 */
export function isUniversityWorkspaceAccount(
  identity: Pick<GoogleIdentity, "hostedDomain">,
  email: string,
  hostedDomains: readonly string[],
): boolean {
  const { hostedDomain } = identity;
  return hostedDomain !== undefined && hostedDomains.includes(hostedDomain) && hostedDomains.includes(domainOf(email));
}

function mustBeUniversityWorkspace(identity: GoogleIdentity, email: string, hostedDomains: readonly string[]): void {
  if (!isUniversityWorkspaceAccount(identity, email, hostedDomains)) {
    throw new AppError("google.failed", { reason: "google.outside_domain" });
  }
}

async function onlyHolderOf(db: Db, email: string): Promise<User> {
  const holders = await findActiveUsersByEmail(db, email);
  if (holders.length === 0) throw new AppError("google.failed", { reason: "google.no_match" });
  const [holder] = holders;
  if (holders.length > 1 || !holder) throw new AppError("google.failed", { reason: "google.email_ambiguous" });
  return holder;
}

/**
 * The campus person a Google identity signs in: the one its subject is linked
 * to; else, for an account of the university's Workspace only, the one active
 * person holding its verified address (who is then linked, so a later change
 * of address at Google keeps working). Any other account must be linked
 * explicitly first: an address alone does not prove who holds the account.
 */
export async function findPersonForGoogle(
  db: Db,
  identity: GoogleIdentity,
  hostedDomains: readonly string[],
): Promise<User> {
  const linked = await findUserByGoogleSubject(db, identity.subject);
  if (linked) return noteVerifiedEmail(db, mustBeActive(linked), identity);
  const email = verifiedEmail(identity);
  mustBeUniversityWorkspace(identity, email, hostedDomains);
  const person = await onlyHolderOf(db, email);
  await linkGoogleSubject(db, person.id, identity.subject);
  return noteVerifiedEmail(db, person, identity);
}

/** Google vouches for the person's own address: KPI ID now knows it is verified (OIDC `email_verified`). */
async function noteVerifiedEmail(db: Db, person: User, identity: GoogleIdentity): Promise<User> {
  const proven = identity.emailVerified && identity.email && person.email;
  if (!proven || identity.email?.toLowerCase() !== person.email?.toLowerCase()) return person;
  if (person.verified_email === person.email) return person;
  await markEmailVerified(db, person.id, person.email);
  return { ...person, verified_email: person.email };
}
