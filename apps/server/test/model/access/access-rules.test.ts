import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccessRule, removeAccessRule } from "../../../src/model/access/rules.ts";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { replacePersonRecords } from "../../../src/model/users/primary-records.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { databaseKinds } from "../../support/databases.ts";

const password = "rules-passphrase-1";
const operator = { actor: "test" };

describe.each(databaseKinds)("access by rule on %s", (kind) => {
  let t: TestApp;
  const units: Record<string, string> = {};
  const apps: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"] });
    const tree = [
      { code: "KPI", kind: "university", nameUk: "КПІ", parentCode: null },
      { code: "FIOT", kind: "faculty", nameUk: "ФІОТ", nameEn: "Faculty of Informatics", parentCode: "KPI" },
      { code: "OT", kind: "department", nameUk: "Кафедра ОТ", parentCode: "FIOT" },
      { code: "IP-21", kind: "group", nameUk: "ІП-21", parentCode: "OT" },
      { code: "FEL", kind: "faculty", nameUk: "ФЕЛ", parentCode: "KPI" },
    ] as const;
    for (const unit of tree) units[unit.code] = (await upsertUnit(t.app.db, unit)).unit.id;
    for (const name of ["fiot-portal", "fiot-staff", "department-only", "library"]) {
      apps[name] = (await addApplication(t.app)).application.id;
    }
    await addAccessRule(t.app.db, apps["fiot-portal"] ?? "", { affiliation: "student", unitId: units.FIOT }, operator);
    await addAccessRule(t.app.db, apps["fiot-staff"] ?? "", { affiliation: "employee", unitId: units.FIOT }, operator);
    await addAccessRule(
      t.app.db,
      apps["department-only"] ?? "",
      { unitId: units.OT, includeSubunits: false, status: "studying" },
      operator,
    );
  });
  afterAll(() => t.close());

  async function visibleApps(username: string): Promise<string[]> {
    const cookie = await signIn(t.app, username, password);
    const response = await t.app.inject({ url: "/user", headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const names = Object.entries(apps);
    return response
      .json<{ applications: { id: string }[] }>()
      .applications.map((application) => names.find(([, id]) => id === application.id)?.[0] ?? application.id)
      .sort();
  }

  async function redirectsTo(username: string, application: string): Promise<boolean> {
    const cookie = await signIn(t.app, username, password);
    const response = await t.app.inject({ url: `/api/app-redirect?appId=${apps[application]}`, headers: { cookie } });
    expect(response.statusCode).toBe(302);
    return response.headers.location?.toString().includes("ticketId=") ?? false;
  }

  async function student(username: string, unit: string, status = "studying") {
    const person = await addPerson(t.app, { username, fullName: username }, password);
    await replacePersonRecords(
      t.app.db,
      person.id,
      { students: [{ studentId: `${username}-card`, unitId: units[unit], status: status as "studying" }] },
      "test",
    );
    return person;
  }

  it("lets a student of a group under the faculty into the faculty's application, at sign-in and redirect", async () => {
    await student("group.student", "IP-21");
    expect(await visibleApps("group.student")).toEqual(["fiot-portal"]);
    expect(await redirectsTo("group.student", "fiot-portal")).toBe(true);
    expect(await redirectsTo("group.student", "fiot-staff")).toBe(false);
    await student("other.faculty", "FEL");
    expect(await visibleApps("other.faculty")).toEqual([]);
  });

  it("honours 'without sub-units': only records in the unit itself match", async () => {
    await student("department.student", "OT");
    expect(await visibleApps("department.student")).toEqual(["department-only", "fiot-portal"]);
    expect(await visibleApps("group.student")).not.toContain("department-only");
  });

  it("takes the application away on graduation, at once", async () => {
    const person = await student("graduate", "IP-21");
    expect(await redirectsTo("graduate", "fiot-portal")).toBe(true);
    await replacePersonRecords(
      t.app.db,
      person.id,
      { students: [{ studentId: "graduate-card", unitId: units["IP-21"], status: "graduated" }] },
      "test",
    );
    expect(await visibleApps("graduate")).toEqual([]);
    expect(await redirectsTo("graduate", "fiot-portal")).toBe(false);
  });

  it("lets an exclusion win over a rule and over a grant; user grant lifts it", async () => {
    await student("excluded", "IP-21");
    expect(
      await runCliOn(t.database.handle, ["user", "grant", "--username", "excluded", "--app", apps.library ?? ""]),
    ).toMatchObject({ code: 0 });
    const revoke = await runCliOn(t.database.handle, [
      "user",
      "revoke",
      "--username",
      "excluded",
      "--app",
      apps["fiot-portal"] ?? "",
      "--json",
    ]);
    expect(revoke.json<{ outcome: string }>().outcome).toBe("excluded");
    const exclude = await runCliOn(t.database.handle, [
      "app",
      "exclude",
      "--username",
      "excluded",
      "--app",
      apps.library ?? "",
    ]);
    expect(exclude.code, exclude.stderr).toBe(0);
    expect(await visibleApps("excluded")).toEqual([]);
    expect(await redirectsTo("excluded", "fiot-portal")).toBe(false);
    await runCliOn(t.database.handle, ["user", "grant", "--username", "excluded", "--app", apps["fiot-portal"] ?? ""]);
    expect(await visibleApps("excluded")).toEqual(["fiot-portal"]);
  });

  it("shows a person with both roles the union of what each gives", async () => {
    const person = await addPerson(t.app, { username: "both.roles", fullName: "Both Roles" }, password);
    await replacePersonRecords(
      t.app.db,
      person.id,
      {
        students: [{ studentId: "BR-1", unitId: units.FEL, status: "studying" }],
        positions: [{ employeeId: "E-BR", unitId: units.OT, status: "active", category: "faculty" }],
      },
      "test",
    );
    await grantAccess(t.app.db, person.id, apps.library ?? "");
    // A student of another faculty and an employee of FIOT: the staff application, not the student one.
    expect(await visibleApps("both.roles")).toEqual(["fiot-staff", "library"]);
  });

  it("applies a rule change at once, and audits it", async () => {
    await student("outsider", "FEL");
    expect(await visibleApps("outsider")).toEqual([]);
    const rule = await addAccessRule(t.app.db, apps.library ?? "", { affiliation: "member" }, operator);
    expect(await visibleApps("outsider")).toEqual(["library"]);
    expect(await removeAccessRule(t.app.db, apps.library ?? "", rule.id, operator)).toBe(true);
    expect(await visibleApps("outsider")).toEqual([]);
    const events = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "reason", "details"])
      .where("application_id", "=", apps.library ?? "")
      .where("event_type", "like", "access_rule_%")
      .orderBy("id")
      .execute();
    expect(events.map((event) => event.event_type)).toEqual(["access_rule_added", "access_rule_removed"]);
    expect(events[0]?.details).toMatchObject({ ruleId: rule.id, affiliation: "member" });
  });
});
