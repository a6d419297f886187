import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanUpExpired } from "../../../src/model/housekeeping/clean-up.ts";
import { importUsersCsv } from "../../../src/model/users/import.ts";
import { grantRole } from "../../../src/model/users/operator-roles.ts";
import { recordAuditEvent } from "../../../src/platform/audit/record.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { databaseKinds } from "../../support/databases.ts";
import { equippedPerson, expectNothingLeft, expectNoWayIn } from "../../support/privacy.ts";
import { scim, scimToken, scimUser } from "../../support/scim.ts";

const dayMs = 24 * 60 * 60 * 1000;

// What the ten-minute clean-up does to personal data: sign-in history and the audit log by age, people who left by schedule.
describe.each(databaseKinds)("retention and the anonymisation of people who left (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  const daysAgo = (days: number) => new Date(clock.now().getTime() - days * dayMs);
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: ["scim"] });
  });
  afterAll(() => t.close());

  it("deletes sign-in history after its year and the rest of the audit log only after AUDIT_RETENTION_DAYS", async () => {
    for (const [type, days] of [
      ["sign_in", 366],
      ["oidc_sign_in", 400],
      ["sign_in", 300],
      ["person_updated", 400],
      ["person_updated", 1100],
    ] as const) {
      await recordAuditEvent(t.app.db, {
        type,
        result: "success",
        reason: "retention-test",
        occurredAt: daysAgo(days),
      });
    }
    const left = async () =>
      (
        await t.app.db
          .selectFrom("audit_events")
          .select(["event_type"])
          .where("reason", "=", "retention-test")
          .orderBy("occurred_at")
          .execute()
      ).map((row) => row.event_type);
    expect(await cleanUpExpired(t.app.db, clock.now(), { auditRetentionDays: 1095 })).toMatchObject({
      signInHistory: 0,
      auditEvents: 1,
    });
    const counts = await cleanUpExpired(t.app.db, clock.now(), {
      auditRetentionDays: 1095,
      signInHistoryRetentionDays: 365,
    });
    expect(counts).toMatchObject({ signInHistory: 2, auditEvents: 0 });
    expect(await left()).toEqual(["person_updated", "sign_in"]);
  });

  /** The person as if their last change (and their records') was `days` ago, disabled unless said otherwise. */
  async function leftLongAgo(userId: string, days: number, status: "active" | "disabled" = "disabled") {
    await t.app.db
      .updateTable("users")
      .set({ status, updated_at: daysAgo(days) })
      .where("id", "=", userId)
      .execute();
    for (const table of ["student_records", "employee_positions"] as const) {
      await t.app.db
        .updateTable(table)
        .set({ updated_at: daysAgo(days) })
        .where("user_id", "=", userId)
        .execute();
    }
  }

  it("anonymises only people disabled, without a current record or role, for longer than the period; audited", async () => {
    const gone = await equippedPerson(t.app, "left.long.ago");
    await leftLongAgo(gone.person.id, 800);
    const studying = await addPerson(t.app, { username: "still.studying", fullName: "Ще Навчається" }, "p4ssphrase!");
    await t.app.db
      .insertInto("student_records")
      .values({ user_id: studying.id, student_id: "КВ-9", status: "academic_leave", source: "scim" })
      .execute();
    await leftLongAgo(studying.id, 800);
    const recent = await addPerson(t.app, { username: "left.lately", fullName: "Пішла Нещодавно" }, "p4ssphrase!");
    await leftLongAgo(recent.id, 100);
    const active = await addPerson(t.app, { username: "quiet.active", fullName: "Тиха Активна" }, "p4ssphrase!");
    await leftLongAgo(active.id, 800, "active");
    const operator = await addPerson(t.app, { username: "old.operator", fullName: "Старий Оператор" }, "p4ssphrase!");
    await grantRole(t.app.db, operator.id, "helpdesk");
    await leftLongAgo(operator.id, 800);

    expect(await cleanUpExpired(t.app.db, clock.now(), { anonymiseLeftAfterDays: 0 })).toMatchObject({
      anonymisedPeople: 0,
    });
    const run = await cleanUpExpired(t.app.db, clock.now(), { anonymiseLeftAfterDays: 730 });
    expect(run).toMatchObject({ anonymisedPeople: 1 });
    await expectNothingLeft(t.app, gone.person.id);
    await expectNoWayIn(t.app, gone, "left.long.ago");
    const kept = await t.app.db
      .selectFrom("users")
      .select("username")
      .where("id", "in", [studying.id, recent.id, active.id, operator.id])
      .where("anonymised_at", "is", null)
      .orderBy("username")
      .execute();
    expect(kept.map((row) => row.username)).toEqual(["left.lately", "old.operator", "quiet.active", "still.studying"]);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select(["reason", "actor_id", "details"])
      .where("event_type", "=", "person_erased")
      .where("user_id", "=", gone.person.id)
      .orderBy("audit_events.id")
      .execute();
    expect(rows).toEqual([
      {
        reason: "privacy.left",
        actor_id: null,
        details: expect.objectContaining({
          afterDays: 730,
          erased: expect.objectContaining({ passkeys: 1, records: 1 }),
        }),
      },
    ]);
    expect(await cleanUpExpired(t.app.db, clock.now(), { anonymiseLeftAfterDays: 730 })).toMatchObject({
      anonymisedPeople: 0,
    });
  });

  it("SCIM, an import and the CLI do not bring an anonymised person back nor give their username to anyone", async () => {
    const { id } = await t.app.db
      .selectFrom("users")
      .select("id")
      .where("username", "like", "erased-%")
      .where("anonymised_at", "is not", null)
      .executeTakeFirstOrThrow();
    const token = await scimToken(t.app, "hr-retention");
    const created = await scim(t.app, token, "/Users", { method: "POST", body: scimUser("left.long.ago") });
    expect([created.statusCode, created.json().scimType]).toEqual([409, "uniqueness"]);
    const replaced = await scim(t.app, token, `/Users/${id}`, { method: "PUT", body: scimUser("left.long.ago") });
    expect(replaced.statusCode).toBe(404);
    const stub = await scim(t.app, token, "/Users", { method: "POST", body: scimUser(`erased-${id}`) });
    expect(stub.statusCode).toBe(409);
    const report = await importUsersCsv(
      t.app.db,
      t.app.passwordHasher,
      `username,full-name\nleft.long.ago,Повернена Особа\nerased-${id},Заглушка\n`,
    );
    expect(report.rejected.map((line) => line.reason)).toEqual([
      expect.stringContaining("erased"),
      expect.stringContaining("erased"),
    ]);
    const cli = await runCliOn(t.database.handle, [
      "user",
      "create",
      "--username",
      "left.long.ago",
      "--full-name",
      "X",
    ]);
    expect([cli.code, cli.stderr]).toEqual([1, expect.stringContaining("belonged to a person whose data was erased")]);
    const enable = await runCliOn(t.database.handle, ["user", "enable", "--username", `erased-${id}`]);
    expect(enable.code).toBe(1);
    const still = await t.app.db
      .selectFrom("users")
      .select(["status", "email"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(still).toEqual({ status: "disabled", email: null });
  });
});
