import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { expect } from "vitest";
import { testBrowser } from "./browser.ts";
import { addApplication, addPerson, grantAccess } from "./campus.ts";
import { addAuthenticator } from "./mfa.ts";
import { addPasskeyFrom, passkeySignIn, passwordBrowser } from "./passkeys.ts";

export const equippedPassword = "everything about me, for now";

let taxIds = 0;

/**
 * A person holding something of every kind an erasure removes: profile with tax id and e-mail, a student
 * record, a password session (with audit rows carrying its address and browser), a passkey, an authenticator
 * app, a Google link, an application's access, consent and OpenID Connect grant.
 */
export async function equippedPerson(app: FastifyInstance, username: string) {
  taxIds += 1;
  const taxId = String(3_000_000_000 + taxIds * 7919);
  const person = await addPerson(
    app,
    { username, fullName: `Повна Особа ${username}`, email: `${username}@kpi.ua`, taxId },
    equippedPassword,
  );
  await app.db
    .insertInto("student_records")
    .values({ user_id: person.id, student_id: `КВ-${taxIds}`, status: "graduated", source: "csv" })
    .execute();
  const browser = await passwordBrowser(app, username, equippedPassword, "192.0.2.44");
  const { authenticator } = await addPasskeyFrom(browser, "Ключ");
  await addAuthenticator(app, person, app.clock());
  await app.db
    .insertInto("external_identities")
    .values({ provider: "google", subject: `google-${person.id}`, user_id: person.id })
    .execute();
  const { application } = await addApplication(app);
  await grantAccess(app.db, person.id, application.id);
  await app.db
    .insertInto("oidc_consents")
    .values({
      user_id: person.id,
      application_id: application.id,
      scopes: ["openid"],
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .execute();
  await app.db
    .insertInto("oidc_payloads")
    .values({
      type: "Grant",
      id: `grant-${person.id}`,
      payload: JSON.stringify({ accountId: person.id, clientId: application.id }),
      grant_id: null,
      user_code: null,
      uid: null,
      expires_at: new Date(Date.now() + 86_400_000),
      consumed_at: null,
    })
    .execute();
  return { person, taxId, browser, authenticator, application };
}

export type EquippedPerson = Awaited<ReturnType<typeof equippedPerson>>;

/**
 * Rows of the areas issue 74 made erasure name (their `on delete cascade` never fires: the account row stays as a
 * stub): an LDAP application password with a use, a guest's stay with its invitation, an identity document, a home
 * identity, a CAS sign-in single logout would name.
 */
export async function equipLaterAreas(app: FastifyInstance, personId: string, applicationId: string) {
  const now = app.clock();
  const password = await app.db
    .insertInto("ldap_passwords")
    .values({ user_id: personId, client_id: null, name: "Пошта", secret_hash: `hmac-${personId}`, created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  await app.db
    .insertInto("ldap_uses")
    .values({ password_id: password.id, user_id: personId, client_id: null, used_at: now, peer: "192.0.2.81" })
    .execute();
  await app.db
    .insertInto("guests")
    .values({ user_id: personId, sponsor_id: null, reason: "Візит", ends_at: new Date(now.getTime() + 86_400_000) })
    .execute();
  await app.db
    .insertInto("guest_invitations")
    .values({
      user_id: personId,
      email: `guest-${personId}@example.org`,
      token_hash: `token-${personId}`,
      expires_at: new Date(now.getTime() + 86_400_000),
    })
    .execute();
  await app.db
    .insertInto("identity_documents")
    .values({ user_id: personId, kind: "passport", series: "КВ", number: String(personId.slice(0, 8)) })
    .execute();
  await app.db
    .insertInto("federated_identities")
    .values({
      user_id: personId,
      institution: "https://idp.example.edu/idp",
      subject_kind: "eppn",
      subject: `${personId}@example.edu`,
      name_id: null,
      scoped_affiliations: [],
      assurance: [],
      visitor: false,
      created_at: now,
      last_seen_at: now,
    })
    .execute();
  await app.db
    .insertInto("cas_sign_ins")
    .values({
      session_id: "00000000-0000-4000-8000-000000000001",
      user_id: personId,
      application_id: applicationId,
      service: "https://cas-client.example.edu/",
      spent_ticket: `ST-${personId}`,
      created_at: now,
    })
    .execute();
}

/** Every way in is closed: the password (by either name), the passkey, the session and the data download. */
export async function expectNoWayIn(app: FastifyInstance, equipped: EquippedPerson, username: string) {
  const { person, browser, authenticator, taxId } = equipped;
  for (const name of [username, `erased-${person.id}`]) {
    const attempt = await testBrowser(app, "192.0.2.45").post("/api/auth", {
      username: name,
      password: equippedPassword,
    });
    expect(attempt.statusCode, name).toBe(401);
  }
  expect((await passkeySignIn(testBrowser(app), authenticator)).answer.json().code).toBe("passkey.failed");
  expect((await browser.get("/api/user")).statusCode).toBe(401);
  expect((await browser.get("/api/account/personal-data")).statusCode).toBe(401);
  // Diia and BankID find a person by tax id, Google by its subject: neither is anywhere any more.
  const byTaxId = await app.db.selectFrom("users").select("id").where("tax_id", "=", taxId).execute();
  expect(byTaxId).toEqual([]);
  const links = await app.db
    .selectFrom("external_identities")
    .select("subject")
    .where("user_id", "=", person.id)
    .execute();
  expect(links).toEqual([]);
}

/** Nothing personal left in any table that names the person; their row is a nameless, disabled stub. */
export async function expectNothingLeft(app: FastifyInstance, userId: string) {
  const { db } = app;
  for (const table of [
    "sessions",
    "login_grants",
    "external_identities",
    "webauthn_credentials",
    "totp_factors",
    "recovery_codes",
    "oidc_consents",
    "saml_consents",
    "user_applications",
    "student_records",
    "employee_positions",
    "operator_roles",
    "ldap_passwords",
    "ldap_uses",
    "guests",
    "guest_invitations",
    "guest_units",
    "guest_applications",
    "identity_documents",
    "federated_identities",
    "visitor_sign_in_requests",
    "cas_tickets",
    "cas_sign_ins",
    "forward_auth_sessions",
    "scim_group_members",
  ] as const) {
    const rows = await db.selectFrom(table).select("user_id").where("user_id", "=", userId).execute();
    expect(rows, table).toEqual([]);
  }
  const providerRows = await db
    .selectFrom("oidc_payloads")
    .select("id")
    .where(sql<string>`payload->>'accountId'`, "=", userId)
    .execute();
  expect(providerRows).toEqual([]);
  const stub = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  expect(stub).toMatchObject({
    username: `erased-${userId}`,
    email: null,
    verified_email: null,
    tax_id: null,
    student_id: null,
    password_hash: null,
    status: "disabled",
  });
  expect(stub.anonymised_at).toBeInstanceOf(Date);
  const audit = await db
    .selectFrom("audit_events")
    .select(["event_type", "ip", "user_agent", "details"])
    .where("user_id", "=", userId)
    .where("event_type", "!=", "person_erased")
    .orderBy("audit_events.id")
    .execute();
  expect(audit.length).toBeGreaterThan(0);
  for (const row of audit) expect(row, row.event_type).toMatchObject({ ip: null, user_agent: null, details: {} });
}
