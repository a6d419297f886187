import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { grantUnitRole } from "../../../src/model/users/unit-roles.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";

/**
 * The unit an application belongs to (issue 79): the detail names it, an admin assigns any unit or none, a unit admin
 * moves one of theirs within reach only, and the operator's /me says which units their roles are held in.
 */
describe("an application's unit in the console", () => {
  let t: TestApp;
  const units = {} as Record<"FICT" | "CS" | "FEL", string>;
  let admin: string;
  let unitAdmin: string;

  beforeAll(async () => {
    t = await createTestApp(aboveModelDatabase, {}, { protocols: [] });
    const unit = async (code: string, kind: "faculty" | "department", parentCode: string | null) =>
      (await upsertUnit(t.app.db, { code, kind, nameUk: `Підрозділ ${code}`, nameEn: `Unit ${code}`, parentCode })).unit
        .id;
    units.FICT = await unit("FICT", "faculty", null);
    units.CS = await unit("FICT-CS", "department", "FICT");
    units.FEL = await unit("FEL", "faculty", null);
    admin = (await addOperator(t.app, ["admin"])).cookie;
    const operator = await addOperator(t.app, []);
    await grantUnitRole(t.app.db, operator.person.id, units.FICT, "unit_admin");
    unitAdmin = operator.cookie;
  });
  afterAll(() => t.close());

  const assign = (cookie: string, id: string, unitId: string | null) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/applications/${id}/unit`,
      headers: { cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
      payload: JSON.stringify({ unitId }),
    });
  const detail = async (cookie: string, id: string) =>
    t.app.inject({ method: "GET", url: `/api/admin/applications/${id}`, headers: { cookie } });

  it("lets an admin assign any unit or none, and the detail names it", async () => {
    const { application } = await addApplication(t.app);
    expect((await detail(admin, application.id)).json().unit).toBeNull();
    expect((await assign(admin, application.id, units.FEL)).json()).toEqual({ done: true });
    expect((await detail(admin, application.id)).json().unit).toEqual({
      id: units.FEL,
      code: "FEL",
      nameUk: "Підрозділ FEL",
      nameEn: "Unit FEL",
    });
    expect((await assign(admin, application.id, units.FEL)).json()).toEqual({ done: false });
    expect((await assign(admin, application.id, null)).json()).toEqual({ done: true });
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "unit_id"])
      .where("application_id", "=", application.id)
      .where("event_type", "=", "application_updated")
      .orderBy("occurred_at")
      .execute();
    expect(audit).toEqual([
      { event_type: "application_updated", unit_id: units.FEL },
      { event_type: "application_updated", unit_id: null },
    ]);
  });

  it("lets a unit admin move their application within reach only; another unit reads as none", async () => {
    const { application } = await addApplication(t.app);
    await assign(admin, application.id, units.FICT);
    expect((await assign(unitAdmin, application.id, units.CS)).json()).toEqual({ done: true });
    expect((await detail(unitAdmin, application.id)).json().unit.code).toBe("FICT-CS");
    for (const away of [units.FEL, null, "00000000-0000-4000-8000-000000000000"]) {
      const refused = await assign(unitAdmin, application.id, away);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().code).toBe("admin.unit_not_found");
    }
    await assign(admin, application.id, units.FEL);
    const gone = await assign(unitAdmin, application.id, units.CS);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe("app.not_found");
  });

  it("tells a unit admin's console which units their role is held in and what it may do", async () => {
    const me = (await t.app.inject({ method: "GET", url: "/api/admin/me", headers: { cookie: unitAdmin } })).json();
    expect(me.roles).toEqual([]);
    expect(me.unitRoles).toEqual([
      { role: "unit_admin", unit: { id: units.FICT, code: "FICT", nameUk: "Підрозділ FICT", nameEn: "Unit FICT" } },
    ]);
    expect(me.permissions).toEqual(expect.arrayContaining(["apps.view", "apps.manage", "audit.view", "people.status"]));
    expect(me.permissions).not.toContain("people.roles");
    expect(me.permissions).not.toContain("people.import");
    const reach = (await t.app.inject({ method: "GET", url: "/api/admin/units", headers: { cookie: unitAdmin } }))
      .json()
      .units.map((unit: { code: string }) => unit.code)
      .sort();
    expect(reach).toEqual(["FICT", "FICT-CS"]);
  });
});
