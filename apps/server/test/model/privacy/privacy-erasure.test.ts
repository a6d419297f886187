import { type ErasedCounts, personErasureResultSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantRole } from "../../../src/model/users/operator-roles.ts";
import { createUser } from "../../../src/model/users/service.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { equipLaterAreas, equippedPerson, expectNothingLeft, expectNoWayIn } from "../../support/privacy.ts";

// An operator's erasure of one person on request: the console's action and `user erase`, the same service.
describe.each(databaseKinds)("erasing a person on request (%s)", (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof addOperator>>;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
    admin = await addOperator(t.app, ["admin"]);
  });
  afterAll(() => t.close());

  const erase = (cookie: string, id: string, username: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/people/${id}/erase`,
      headers: { cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ username }),
    });
  const erasedRows = (userId: string) =>
    t.app.db
      .selectFrom("audit_events")
      .select(["reason", "actor_id", "details", "ip"])
      .where("user_id", "=", userId)
      .where("event_type", "=", "person_erased")
      .orderBy("audit_events.id")
      .execute();

  it("the console erases everything of the person, keeps their audit trail without it, and closes every way in", async () => {
    const equipped = await equippedPerson(t.app, "leaving.now");
    const { person } = equipped;
    await equipLaterAreas(t.app, person.id, equipped.application.id);
    const answer = await erase(admin.cookie, person.id, "Leaving.Now");
    expect(answer.statusCode, answer.body).toBe(200);
    const { erased } = personErasureResultSchema.parse(answer.json());
    expect(erased).toMatchObject({
      sessions: 1,
      records: 1,
      googleLinks: 1,
      passkeys: 1,
      authenticatorApps: 1,
      consents: 1,
      applicationAccess: 1,
      consoleRoles: 0,
      applicationPasswords: 1,
    } satisfies Partial<ErasedCounts>);
    // full name, e-mail, tax id, student id, password, language, first sign-in
    expect(erased.profileFields).toBeGreaterThanOrEqual(6);
    expect(erased.applicationTokens).toBeGreaterThanOrEqual(1);
    expect(erased.auditRows).toBeGreaterThanOrEqual(2);
    await expectNothingLeft(t.app, person.id);
    await expectNoWayIn(t.app, equipped, "leaving.now");
    expect(await erasedRows(person.id)).toEqual([
      {
        reason: "privacy.request",
        actor_id: admin.person.id,
        details: { erased, via: "console" },
        ip: expect.any(String),
      },
    ]);
    // The person screen says so; nothing more is done to the stub, nor is it erased twice.
    const detail = await t.app.inject({ url: `/api/admin/people/${person.id}`, headers: { cookie: admin.cookie } });
    expect(detail.json().erasedAt).toEqual(expect.any(String));
    const enable = await t.app.inject({
      method: "POST",
      url: `/api/admin/people/${person.id}/status`,
      headers: { cookie: admin.cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ status: "active" }),
    });
    expect(enable.json().code).toBe("admin.person_erased");
    expect((await erase(admin.cookie, person.id, `erased-${person.id}`)).json().code).toBe("admin.person_erased");
    // The username is never given again, to anyone.
    await expect(
      createUser(t.app.db, t.app.passwordHasher, { username: "LEAVING.now", fullName: "Інша Особа" }),
    ).rejects.toMatchObject({ reason: "username_retired" });
  });

  it("refuses helpdesk, a weak or old sign-in, a wrong confirmation, and the operator themselves", async () => {
    const { person } = await equippedPerson(t.app, "kept.safe");
    const helpdesk = await addOperator(t.app, ["helpdesk"]);
    const weakAdmin = await addOperator(t.app, ["admin"], "PASSWORD");
    expect((await erase(helpdesk.cookie, person.id, "kept.safe")).json().code).toBe("admin.forbidden");
    expect((await erase(weakAdmin.cookie, person.id, "kept.safe")).json().code).toBe("auth.step_up_required");
    const wrong = await erase(admin.cookie, person.id, "someone.else");
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, "admin.erase_not_confirmed"]);
    const self = await erase(admin.cookie, admin.person.id, admin.person.username);
    expect([self.statusCode, self.json().code]).toEqual([409, "admin.erase_self"]);
    const unknown = await erase(admin.cookie, "00000000-0000-4000-8000-000000000000", "x");
    expect(unknown.json().code).toBe("admin.person_not_found");
    // Nothing happened to anyone: the person still signs in, the operator's session still works.
    const still = await t.app.db
      .selectFrom("users")
      .select(["anonymised_at", "status"])
      .where("id", "=", person.id)
      .executeTakeFirstOrThrow();
    expect(still).toEqual({ anonymised_at: null, status: "active" });
    expect(await erasedRows(person.id)).toEqual([]);
  });

  it("user erase needs the username repeated, erases, prints the counts and is audited as the command line", async () => {
    const equipped = await equippedPerson(t.app, "by.command");
    const unconfirmed = await runCliOn(t.database.handle, ["user", "erase", "--username", "by.command"]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("--confirm must repeat the username");
    const run = await runCliOn(t.database.handle, [
      "user",
      "erase",
      "--username",
      "by.command",
      "--confirm",
      "by.command",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { erased } = run.json<{ erased: ErasedCounts }>();
    expect(erased).toMatchObject({ sessions: 1, passkeys: 1, authenticatorApps: 1, googleLinks: 1, records: 1 });
    await expectNothingLeft(t.app, equipped.person.id);
    await expectNoWayIn(t.app, equipped, "by.command");
    expect(await erasedRows(equipped.person.id)).toEqual([
      { reason: "privacy.request", actor_id: null, details: { erased, via: "cli" }, ip: null },
    ]);
    const again = await runCliOn(t.database.handle, [
      "user",
      "erase",
      "--username",
      "by.command",
      "--confirm",
      "by.command",
    ]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining("no user 'by.command'")]);
  });

  it("user erase refuses the last admin; with another admin in place the former one goes", async () => {
    const fresh = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
    try {
      const only = await addPerson(
        fresh.app,
        { username: "only.admin", fullName: "Єдина Адміністраторка" },
        "p4ssphrase!",
      );
      await grantRole(fresh.app.db, only.id, "admin");
      const args = ["user", "erase", "--username", "only.admin", "--confirm", "only.admin"];
      const refused = await runCliOn(fresh.database.handle, args);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("only admin")]);
      const next = await addPerson(fresh.app, { username: "next.admin", fullName: "Наступний Адмін" }, "p4ssphrase!");
      await grantRole(fresh.app.db, next.id, "admin");
      const done = await runCliOn(fresh.database.handle, [...args, "--json"]);
      expect(done.code, done.stderr).toBe(0);
      expect(done.json<{ erased: ErasedCounts }>().erased.consoleRoles).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});
