import type { PersonalData } from "@kpi-id/contracts";
import type { Db, User } from "../../platform/db/schema.ts";
import { consentsGivenBy } from "../access/consents.ts";
import { identityLinkDatesOf } from "../google/identities.ts";
import { recoveryCodesLeft } from "../mfa/recovery-codes.ts";
import { totpState } from "../mfa/totp.ts";
import { passkeysForExport } from "../passkeys/credentials.ts";
import { findUserById } from "../users/queries.ts";

// The reads behind the personal-data export (docs/privacy.md), each through the area that keeps it: the surface
// composes them with the records, sessions, applications, activity, Wi-Fi and developers' parts.

export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** The person's ways to sign in, each read through the area that keeps it. */
export async function signInMethodsOf(db: Db, user: { id: string; password_hash: string | null }) {
  const totp = await totpState(db, user.id);
  return {
    password: user.password_hash !== null,
    authenticatorApp: totp ? { confirmedAt: isoOrNull(totp.confirmedAt) } : null,
    recoveryCodesLeft: await recoveryCodesLeft(db, user.id),
    passkeys: await passkeysForExport(db, user.id),
    // The Google account's subject is Google's id for the person; when it was linked is what they need.
    googleAccounts: (await identityLinkDatesOf(db, user.id)).map((linkedAt) => ({ linkedAt: linkedAt.toISOString() })),
  };
}

/** The consents the person gave over OpenID Connect and SAML (the ticket path's show with the applications). */
export async function consentsOf(db: Db, userId: string): Promise<PersonalData["consents"]> {
  const given = await consentsGivenBy(db, userId);
  return {
    openIdConnect: given.flatMap((consent) =>
      consent.protocol === "oidc"
        ? [{ application: consent.applicationTitle, scopes: consent.allowed, until: consent.until.toISOString() }]
        : [],
    ),
    saml: given.flatMap((consent) =>
      consent.protocol === "saml"
        ? [{ serviceProvider: consent.spEntityId, attributes: consent.allowed, givenAt: consent.givenAt.toISOString() }]
        : [],
    ),
  };
}

/** The person's account row, whole: the export shows its fields. */
export async function accountRowOf(db: Db, userId: string): Promise<User> {
  const person = await findUserById(db, userId);
  if (!person) throw new Error(`no person ${userId}`);
  return person;
}
