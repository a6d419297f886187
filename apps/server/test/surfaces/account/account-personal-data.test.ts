import { personalDataSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addAuthenticator } from "../../support/mfa.ts";

const password = "my data is mine to take";

describe.each(aboveModelDatabases)("a person downloads their data (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [], clock: clock.now });
  });
  afterAll(() => t.close());

  const download = (cookie: string) => t.app.inject({ url: "/api/account/personal-data", headers: { cookie } });

  it("gets profile, methods without secrets, sessions and a year of activity, labelled in both languages", async () => {
    const person = await addPerson(
      t.app,
      { username: "data-owner", fullName: "Власниця Даних", email: "owner@kpi.ua", taxId: "3012345678" },
      password,
    );
    await t.app.db
      .insertInto("student_records")
      .values({
        user_id: person.id,
        student_id: "КВ-1234",
        speciality: "121",
        status: "studying",
        source: "csv",
        starts_on: "2024-09-01",
      })
      .execute();
    await t.app.db
      .insertInto("employee_positions")
      .values({ user_id: person.id, employee_id: "E-77", position: "Лаборантка", status: "active", source: "scim" })
      .execute();
    const cookie = await signIn(t.app, "data-owner", password);
    await addAuthenticator(t.app, person, clock.now());
    const response = await download(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toBe('attachment; filename="kpi-id-data-owner-2026-03-01.json"');
    const data = personalDataSchema.parse(response.json());
    expect(data.profile).toMatchObject({ username: "data-owner", fullName: "Власниця Даних", taxId: "3012345678" });
    expect(data.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "student",
          id: "КВ-1234",
          title: "121",
          startsOn: "2024-09-01",
          source: "csv",
        }),
        expect.objectContaining({ kind: "employee", id: "E-77", title: "Лаборантка", status: "active", endsOn: null }),
      ]),
    );
    expect(data.signInMethods).toMatchObject({ password: true, authenticatorApp: { confirmedAt: expect.any(String) } });
    expect(data.sessions.filter((session) => session.current)).toHaveLength(1);
    expect(data.securityActivity.map((event) => event.type)).toContain("sign_in");
    for (const section of ["profile", "records", "signInMethods", "sessions", "consents", "securityActivity"]) {
      expect(data.labels[section]).toEqual({ uk: expect.any(String), en: expect.any(String) });
    }
    // No secret of any kind: the password hash, the sealed TOTP secret, the session token.
    const { password_hash } = await t.app.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", person.id)
      .executeTakeFirstOrThrow();
    const { secret_sealed } = await t.app.db
      .selectFrom("totp_factors")
      .select("secret_sealed")
      .where("user_id", "=", person.id)
      .executeTakeFirstOrThrow();
    expect(response.body).not.toContain(String(password_hash));
    expect(response.body).not.toContain(secret_sealed);
    expect(response.body).not.toContain("argon2");
    expect(response.body).not.toContain(cookie.split("=")[1] ?? "no-cookie");
    // The copy leaving the service is itself in the person's activity (and the console's audit log).
    const exported = await t.app.db
      .selectFrom("audit_events")
      .select(["result", "ip"])
      .where("user_id", "=", person.id)
      .where("event_type", "=", "personal_data_exported")
      .orderBy("audit_events.id")
      .execute();
    expect(exported).toEqual([{ result: "success", ip: expect.any(String) }]);
  });

  it("shows what later areas keep: home identities, LDAP passwords with their uses, guests on both sides", async () => {
    const sponsor = await addPerson(t.app, { username: "sponsor.data", fullName: "Спонсорка Даних" }, password);
    const guest = await addPerson(t.app, { username: "guest.data", fullName: "Гостя Даних" }, password);
    const now = clock.now();
    const endsAt = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
    await t.app.db
      .insertInto("federated_identities")
      .values({
        user_id: sponsor.id,
        institution: "https://idp.example.edu/idp",
        subject_kind: "eppn",
        subject: "sponsor@example.edu",
        name_id: null,
        scoped_affiliations: ["staff@example.edu"],
        assurance: [],
        visitor: false,
        created_at: now,
        last_seen_at: now,
      })
      .execute();
    const stored = await t.app.db
      .insertInto("ldap_passwords")
      .values({
        user_id: sponsor.id,
        client_id: null,
        name: "Поштовий клієнт",
        secret_hash: "hmac-not-shown",
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.app.db
      .insertInto("ldap_uses")
      .values({ password_id: stored.id, user_id: sponsor.id, client_id: null, used_at: now, peer: "192.0.2.80" })
      .execute();
    await t.app.db
      .insertInto("guests")
      .values({
        user_id: guest.id,
        sponsor_id: sponsor.id,
        reason: "Спільний проєкт",
        ends_at: endsAt,
        created_at: now,
      })
      .execute();
    await t.app.db
      .insertInto("identity_documents")
      .values({ user_id: sponsor.id, kind: "idpassport", number: "000123456" })
      .execute();

    const sponsorData = personalDataSchema.parse(
      (await download(await signIn(t.app, "sponsor.data", password))).json(),
    );
    expect(sponsorData.homeIdentities).toEqual([
      expect.objectContaining({ institution: "https://idp.example.edu/idp", identifierKind: "eppn", visitor: false }),
    ]);
    expect(sponsorData.ldapPasswords).toEqual([
      {
        name: "Поштовий клієнт",
        client: null,
        createdAt: now.toISOString(),
        lastUsedAt: null,
        uses: [{ usedAt: now.toISOString(), client: null, address: "192.0.2.80" }],
      },
    ]);
    expect(sponsorData.sponsoredGuests).toEqual([
      { fullName: "Гостя Даних", state: "active", since: now.toISOString(), endsAt: endsAt.toISOString() },
    ]);
    expect(sponsorData.guest).toBeNull();
    expect(sponsorData.identityDocuments).toEqual([
      expect.objectContaining({ kind: "idpassport", number: "000123456" }),
    ]);
    const guestResponse = await download(await signIn(t.app, "guest.data", password));
    const guestData = personalDataSchema.parse(guestResponse.json());
    expect(guestData.guest).toMatchObject({ sponsor: "Спонсорка Даних", reason: "Спільний проєкт", state: "active" });
    expect(guestData.sponsoredGuests).toEqual([]);
    // No secret: the application password's keyed hash and the home institution's identifier of the person stay in.
    expect(JSON.stringify(sponsorData)).not.toContain("hmac-not-shown");
    expect(JSON.stringify(sponsorData)).not.toContain("sponsor@example.edu");
    // The file keeps its order (issue 74 composed it from the areas): the earlier sections first, as before.
    expect(Object.keys(guestResponse.json())).toEqual([
      "exportedAt",
      "labels",
      "profile",
      "records",
      "signInMethods",
      "sessions",
      "applications",
      "consents",
      "securityActivity",
      "wifiPasswords",
      "developerApplications",
      "homeIdentities",
      "ldapPasswords",
      "guest",
      "sponsoredGuests",
      "identityDocuments",
    ]);
    expect(Object.keys(guestResponse.json().labels).slice(0, 12)).toEqual([
      "profile",
      "username",
      "fullName",
      "email",
      "verifiedEmail",
      "taxId",
      "studentId",
      "employeeId",
      "status",
      "createdAt",
      "firstSignedInAt",
      "records",
    ]);
    expect(Object.keys(guestResponse.json().signInMethods)).toEqual([
      "password",
      "authenticatorApp",
      "recoveryCodesLeft",
      "passkeys",
      "googleAccounts",
    ]);
  });

  it("keeps activity older than a year out, and asks for a fresh sign-in once the last one is old", async () => {
    await addPerson(t.app, { username: "long-timer", fullName: "Давня Людина" }, password);
    await signIn(t.app, "long-timer", password);
    clock.advance(400 * 24 * 3600);
    const cookie = await signIn(t.app, "long-timer", password);
    const data = personalDataSchema.parse((await download(cookie)).json());
    expect(data.securityActivity.length).toBeGreaterThan(0);
    const yearAgo = clock.now().getTime() - 365 * 24 * 3600 * 1000;
    expect(data.securityActivity.every((event) => Date.parse(event.at) >= yearAgo)).toBe(true);
    clock.advance(3600);
    const stale = await download(cookie);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe("auth.reauth_required");
  });

  it("answers 401 without a session", async () => {
    const response = await t.app.inject({ url: "/api/account/personal-data" });
    expect(response.statusCode).toBe(401);
  });
});
