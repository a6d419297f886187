import { type ErasedCounts, erasedKinds } from "@kpi-id/contracts";
import { sql } from "kysely";
import { hashToken } from "../../platform/crypto/tokens.ts";
import type { Db, User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { revokeOidcGrants } from "../oidc/grants.ts";
import { removeMembershipsOf } from "../developers/erasure.ts";
import { deleteSessionsOf } from "../sessions/store.ts";
import { revokeAllNetworkPasswords } from "../wifi/passwords.ts";

/** The row's personal fields; each one not already empty counts once in `profileFields`. */
const personalFields = [
  "full_name",
  "email",
  "verified_email",
  "tax_id",
  "student_id",
  "employee_id",
  "password_hash",
  "scim_external_id",
  "scim_attributes",
  "language",
  "first_signed_in_at",
] as const satisfies readonly (keyof User)[];

/** The name a nameless person carries: their id, so it is unique, stable and says nothing about them. */
export const erasedUsername = (userId: string) => `erased-${userId}`;

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

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
const updated = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows);

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
  const id = (table: "external_identities" | "webauthn_credentials" | "totp_factors" | "recovery_codes") =>
    db.deleteFrom(table).where("user_id", "=", userId).executeTakeFirst().then(deleted);
  return {
    googleLinks: await id("external_identities"),
    passkeys: await id("webauthn_credentials"),
    authenticatorApps: await id("totp_factors"),
    recoveryCodes: await id("recovery_codes"),
    // Wi-Fi passwords stop with the person (their uses go with them); an operator's Wi-Fi switch too.
    networkPasswords: await revokeAllNetworkPasswords(db, userId),
  };
}

async function endSignIns(db: Db, userId: string) {
  // The provider's own rows (sessions, grants, tokens) name the person as accountId; grants take their tokens.
  const grants = await revokeOidcGrants(db, { userId, keepConsents: true });
  const providerRows = await db
    .deleteFrom("oidc_payloads")
    .where(sql<string>`payload->>'accountId'`, "=", userId)
    .executeTakeFirst();
  // SAML sessions go with the sessions (on delete cascade).
  const sessions = await deleteSessionsOf(db, userId);
  let pendingSignIns = 0;
  for (const table of [
    "login_grants",
    "tickets",
    "ticket_consent_requests",
    "password_reset_tokens",
    "webauthn_challenges",
  ] as const) {
    pendingSignIns += deleted(await db.deleteFrom(table).where("user_id", "=", userId).executeTakeFirst());
  }
  pendingSignIns += deleted(await db.deleteFrom("diia_requests").where("user_id", "=", userId).executeTakeFirst());
  return { sessions, pendingSignIns, applicationTokens: grants + deleted(providerRows) };
}

async function removeRelations(db: Db, userId: string) {
  const consents =
    deleted(await db.deleteFrom("oidc_consents").where("user_id", "=", userId).executeTakeFirst()) +
    deleted(await db.deleteFrom("saml_consents").where("user_id", "=", userId).executeTakeFirst()) +
    deleted(await db.deleteFrom("ticket_consents").where("user_id", "=", userId).executeTakeFirst());
  const applicationAccess =
    deleted(await db.deleteFrom("user_applications").where("user_id", "=", userId).executeTakeFirst()) +
    deleted(await db.deleteFrom("access_exclusions").where("user_id", "=", userId).executeTakeFirst());
  const records =
    deleted(await db.deleteFrom("student_records").where("user_id", "=", userId).executeTakeFirst()) +
    deleted(await db.deleteFrom("employee_positions").where("user_id", "=", userId).executeTakeFirst());
  const consoleRoles = deleted(await db.deleteFrom("operator_roles").where("user_id", "=", userId).executeTakeFirst());
  return { consents, applicationAccess, records, consoleRoles };
}

/**
 * The person's audit rows stay (who did what, when, with which result), keyed by the same id, without
 * what identifies a human: the address, the browser and the details (old and new e-mail, device names).
 * Rows where they acted as an operator keep their details (those are about the other person).
 */
async function anonymiseAuditRows(db: Db, userId: string): Promise<number> {
  const own = await db
    .updateTable("audit_events")
    .set({ ip: null, user_agent: null, details: "{}" })
    .where("user_id", "=", userId)
    .where((eb) =>
      eb.or([eb("ip", "is not", null), eb("user_agent", "is not", null), eb(sql<string>`details::text`, "!=", "{}")]),
    )
    .executeTakeFirst();
  const asOperator = await db
    .updateTable("audit_events")
    .set({ ip: null, user_agent: null })
    .where("actor_id", "=", userId)
    .where((eb) => eb.or([eb("user_id", "is", null), eb("user_id", "!=", userId)]))
    .where((eb) => eb.or([eb("ip", "is not", null), eb("user_agent", "is not", null)]))
    .executeTakeFirst();
  return updated(own) + updated(asOperator);
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
    auditRows: await anonymiseAuditRows(db, userId),
  };
  await db
    .insertInto("retired_usernames")
    .values({ username_sha256: usernameDigest(person.username), retired_at: now })
    .onConflict((conflict) => conflict.column("username_sha256").doNothing())
    .execute();
  await db
    .updateTable("users")
    .set({
      username: erasedUsername(userId),
      full_name: erasedUsername(userId),
      ...Object.fromEntries(personalFields.filter((field) => field !== "full_name").map((field) => [field, null])),
      status: "disabled",
      require_mfa: false,
      scim_deleted_at: person.scim_deleted_at ?? now,
      anonymised_at: now,
      updated_at: now,
    })
    .where("id", "=", userId)
    .execute();
  return Object.fromEntries(erasedKinds.map((kind) => [kind, counts[kind]])) as ErasedCounts;
}
