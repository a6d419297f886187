import { developerApplicationSchema, personalDataSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { addMember, addStudent, registerApplication } from "../../support/developers.ts";

/** Issue 56, point 6: an erased person leaves every application; "Download my data" lists them. */
describe.each(databaseKinds)("developers' memberships in erasure and the data download (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });

  it("erasure removes the person's owner and tester rows and invitations; an ownerless application is suspended", async () => {
    const leaving = await addStudent(t.app, "leaving");
    const partner = await addStudent(t.app, "partner");
    const alone = await registerApplication(t.app, leaving.cookie, {
      title: "Сам",
      titleEn: "Alone",
      callbackUrls: [],
      redirectUris: ["https://alone.example.edu/cb"],
    });
    const shared = await registerApplication(t.app, partner.cookie);
    await addMember(t.app, shared.application.id, "owner", partner, leaving);
    const tested = await registerApplication(t.app, partner.cookie);
    await addMember(t.app, tested.application.id, "tester", partner, leaving);
    const waiting = await registerApplication(t.app, partner.cookie);
    await post(
      `/api/developers/applications/${waiting.application.id}/testers`,
      { person: `${leaving.username}@kpi.ua` },
      partner.cookie,
    );

    const admin = await addOperator(t.app, ["admin"]);
    const erased = await post(
      `/api/admin/people/${leaving.person.id}/erase`,
      { username: leaving.username },
      admin.cookie,
    );
    expect(erased.statusCode, erased.body).toBe(200);
    // Owner of two, tester of one, one invitation.
    expect(erased.json().erased.applicationAccess).toBe(4);

    for (const table of ["application_owners", "application_testers"] as const) {
      const rows = await t.app.db
        .selectFrom(table)
        .select("user_id")
        .where("user_id", "=", leaving.person.id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    const invitations = await t.app.db.selectFrom("application_invitations").select("named").execute();
    expect(invitations.map((row) => row.named.toLowerCase())).not.toContain(`${leaving.username}@kpi.ua`);
    for (const { application } of [shared, tested]) {
      const detail = developerApplicationSchema.parse(
        (await get(`/api/developers/applications/${application.id}`, partner.cookie)).json(),
      );
      expect(JSON.stringify([detail.owners, detail.testers])).not.toContain("erased-");
      expect(detail.suspended).toBe(false);
    }
    const ownerless = await t.app.db
      .selectFrom("applications")
      .select(["suspended_at", "suspension_reason"])
      .where("id", "=", alone.application.id)
      .executeTakeFirstOrThrow();
    expect(ownerless.suspended_at).not.toBeNull();
    expect(ownerless.suspension_reason).toContain("Its only owner was erased");
    // The operators are told in the console's audit log, with the reason.
    const told = await get(`/api/admin/audit?app=${alone.application.id}&type=application_suspended`, admin.cookie);
    expect(told.statusCode).toBe(200);
    expect(told.body).toContain("developer.no_owner_left");
  });

  it("Download my data lists the applications the person owns or tests and the invitations waiting", async () => {
    const person = await addStudent(t.app, "downloader");
    const other = await addStudent(t.app, "other-owner");
    await registerApplication(t.app, person.cookie, {
      title: "Моє",
      titleEn: "Mine",
      callbackUrls: ["http://localhost:5173/cb"],
    });
    const tested = await registerApplication(t.app, other.cookie, {
      title: "Тестую",
      titleEn: "Testing",
      callbackUrls: ["http://localhost:5173/cb"],
    });
    await addMember(t.app, tested.application.id, "tester", other, person);
    const invited = await registerApplication(t.app, other.cookie, {
      title: "Запрошено",
      titleEn: "Invited",
      callbackUrls: ["http://localhost:5173/cb"],
    });
    await post(
      `/api/developers/applications/${invited.application.id}/owners`,
      { person: person.username },
      other.cookie,
    );

    const data = personalDataSchema.parse((await get("/api/account/personal-data", person.cookie)).json());
    expect(data.labels.developerApplications).toMatchObject({ en: expect.stringContaining("own or test") });
    expect(data.developerApplications).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: "Моє", role: "owner", status: "member", invitationExpiresAt: null }),
        expect.objectContaining({ title: "Тестую", role: "tester", status: "member" }),
        expect.objectContaining({ title: "Запрошено", role: "owner", status: "invited", memberSince: null }),
      ]),
    );
    expect(data.developerApplications).toHaveLength(3);
  });
});
