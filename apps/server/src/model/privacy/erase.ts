import { type ErasedCounts, erasedKinds } from "@kpi-id/contracts";
import { anonymiseAuditRowsOf } from "../../platform/audit/erasure.ts";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { removeAllAccessOf } from "../access/applications.ts";
import { forgetOidcConsents } from "../access/oidc-consents.ts";
import { forgetSamlConsents } from "../access/saml-consents.ts";
import { forgetTicketConsents } from "../access/ticket-consents.ts";
import { removeMembershipsOf } from "../developers/erasure.ts";
import { deleteDiiaRequestsOf } from "../diia/requests.ts";
import { removeIdentitiesOf } from "../google/identities.ts";
import { removeRecoveryCodes } from "../mfa/recovery-codes.ts";
import { removeTotp } from "../mfa/totp.ts";
import { deletePayloadsOfAccount, revokeOidcGrants } from "../oidc/grants.ts";
import { deleteChallengesOf } from "../passkeys/challenges.ts";
import { removeAllPasskeys } from "../passkeys/credentials.ts";
import { deleteRecordsOf } from "../people/records.ts";
import { deleteResetTokensOf } from "../recovery/tokens.ts";
import { deleteLoginGrantsOf } from "../sessions/grants.ts";
import { deleteSessionsOf } from "../sessions/store.ts";
import { deleteTicketsOfPerson } from "../tickets/cleanup.ts";
import { anonymiseAccount, personalFields } from "../users/anonymise.ts";
import { revokeAllRoles } from "../users/operator-roles.ts";
import { revokeAllUnitRoles } from "../users/unit-roles.ts";
import { revokeAllNetworkPasswords } from "../wifi/passwords.ts";
import { forgetWifiSwitch } from "../wifi/people.ts";

// Each table's rows go through its owner (scripts/dependencies/table-owners.ts), all in the caller's transaction.

/** A username kept for ever as SHA-256 of its lower-cased form (retired_usernames, migration 0460). */
export const usernameDigest = (username: string) => hashToken(`kpi-id username\n${username.toLowerCase()}`);

/** Whether the username belonged to an anonymised person, so no one is given it again. */
export async function isRetiredUsername(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom("retired_usernames")
    .select("retired_at")
    .where("username_sha256", "=", usernameDigest(username))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Refuses what must not be erased: someone already erased, the operator's own data (an operator never
 * locks themselves out by a slip), and the last admin (the console would have no one left to run it).
 */
export async function assertErasable(db: Db, person: User, actorId: string | undefined): Promise<void> {
  if (person.anonymised_at) throw new AppError("admin.person_erased");
  if (actorId === person.id) throw new AppError("admin.erase_self");
  const admins = await db.selectFrom("operator_roles").select("user_id").where("role", "=", "admin").execute();
  if (admins.some((row) => row.user_id === person.id) && admins.length === 1) {
    throw new AppError("admin.erase_last_admin");
  }
}

async function removeSignInMethods(db: Db, userId: string) {
  // The switch is no sign-in method and has no count of its own in the answer: the passwords' count covers Wi-Fi.
  await forgetWifiSwitch(db, userId);
  return {
    googleLinks: await removeIdentitiesOf(db, userId),
    passkeys: await removeAllPasskeys(db, userId),
    authenticatorApps: Number(await removeTotp(db, userId)),
    recoveryCodes: await removeRecoveryCodes(db, userId),
    // Wi-Fi passwords stop with the person (their uses go with them); an operator's Wi-Fi switch too.
    networkPasswords: await revokeAllNetworkPasswords(db, userId),
  };
}

async function endSignIns(db: Db, userId: string) {
  // The provider's own rows (sessions, grants, tokens) name the person as accountId; grants take their tokens.
  const grants = await revokeOidcGrants(db, { userId, keepConsents: true });
  const providerRows = await deletePayloadsOfAccount(db, userId);
  // SAML sessions go with the sessions (on delete cascade).
  const sessions = await deleteSessionsOf(db, userId);
  const pendingSignIns =
    (await deleteLoginGrantsOf(db, userId)) +
    (await deleteTicketsOfPerson(db, userId)) +
    (await deleteResetTokensOf(db, userId)) +
    (await deleteChallengesOf(db, userId)) +
    (await deleteDiiaRequestsOf(db, userId));
  return { sessions, pendingSignIns, applicationTokens: grants + providerRows };
}

async function removeRelations(db: Db, userId: string) {
  const consents =
    (await forgetOidcConsents(db, { userId })) +
    (await forgetSamlConsents(db, { userId })) +
    (await forgetTicketConsents(db, { userId }));
  const applicationAccess = await removeAllAccessOf(db, userId);
  const records = await deleteRecordsOf(db, userId);
  const consoleRoles = (await revokeAllRoles(db, userId)) + (await revokeAllUnitRoles(db, userId));
  return { consents, applicationAccess, records, consoleRoles };
}

/**
 * Removes a person's personal data and keeps their row as a nameless, disabled stub: the id stays the
 * pseudonymous reference of their audit rows and of the subject applications know, the username is
 * retired (never given to anyone again), and no sign-in method is left. Run inside the caller's
 * transaction; the caller writes the `person_erased` row. Answers what went, kind by kind.
 */
export async function anonymisePerson(db: Db, person: User, now: Date): Promise<ErasedCounts> {
  const userId = person.id;
  const profileFields = personalFields.filter((field) => person[field] !== null && person[field] !== "").length;
  const signIns = await endSignIns(db, userId);
  const methods = await removeSignInMethods(db, userId);
  const relations = await removeRelations(db, userId);
  // Owner and tester rows count as access to applications, with the invitations (model/developers/erasure.ts).
  const memberships = await removeMembershipsOf(db, person, now);
  const counts = {
    profileFields,
    ...signIns,
    ...methods,
    ...relations,
    applicationAccess: relations.applicationAccess + memberships,
    auditRows: await anonymiseAuditRowsOf(db, userId),
  };
  await db
    .insertInto("retired_usernames")
    .values({ username_sha256: usernameDigest(person.username), retired_at: now })
    .onConflict((conflict) => conflict.column("username_sha256").doNothing())
    .execute();
  await anonymiseAccount(db, person, now);
  return Object.fromEntries(erasedKinds.map((kind) => [kind, counts[kind]])) as ErasedCounts;
}
