import type { Db, User } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import type { GoogleIdentity } from "./client.ts";
import { findActiveUsersByEmail, findUserByGoogleSubject, linkGoogleSubject } from "./identities.ts";

function mustBeActive(user: User): User {
  if (user.status !== "active") throw new AppError("google.failed", { reason: "user.disabled" });
  return user;
}

function verifiedEmail(identity: GoogleIdentity): string {
  if (!identity.email) throw new AppError("google.failed", { reason: "google.no_email" });
  if (!identity.emailVerified) throw new AppError("google.failed", { reason: "google.email_unverified" });
  return identity.email;
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
 * to, else the only active person holding its verified e-mail address (who
 * is then linked, so a later change of address at Google keeps working).
 */
export async function findPersonForGoogle(db: Db, identity: GoogleIdentity): Promise<User> {
  const linked = await findUserByGoogleSubject(db, identity.subject);
  if (linked) return noteVerifiedEmail(db, mustBeActive(linked), identity);
  const person = await onlyHolderOf(db, verifiedEmail(identity));
  await linkGoogleSubject(db, person.id, identity.subject);
  return noteVerifiedEmail(db, person, identity);
}

/** Google vouches for the person's own address: KPI ID now knows it is verified (OIDC `email_verified`). */
async function noteVerifiedEmail(db: Db, person: User, identity: GoogleIdentity): Promise<User> {
  const proven = identity.emailVerified && identity.email && person.email;
  if (!proven || identity.email?.toLowerCase() !== person.email?.toLowerCase()) return person;
  if (person.verified_email === person.email) return person;
  await db.updateTable("users").set({ verified_email: person.email }).where("id", "=", person.id).execute();
  return { ...person, verified_email: person.email };
}
