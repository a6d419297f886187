import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { kpiUserSchema, patchOpSchema, scim, scimToken, scimUser } from "../../support/scim.ts";

const kpiGroupSchema = "urn:ietf:params:scim:schemas:extension:kpi:2.0:Group";

interface GroupBody {
  id: string;
  displayName: string;
  externalId: string;
  members?: { value: string; display: string }[];
  meta: { version: string };
  [kpiGroupSchema]: { kind: string; parent?: string; nameEn?: string };
}

describe.each(aboveModelDatabases)("SCIM Groups (units) on %s", (kind) => {
  let t: TestApp;
  let token = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "student-office");
  });
  afterAll(() => t.close());

  const group = (code: string, name: string, extension: Record<string, string>) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group", kpiGroupSchema],
    externalId: code,
    displayName: name,
    [kpiGroupSchema]: extension,
  });

  it("creates units in a tree, lists and filters them, and shows the people whose records name a unit as members", async () => {
    const faculty = await scim(t.app, token, "/Groups", {
      method: "POST",
      body: group("FICT", "ФІОТ", { kind: "faculty", nameEn: "FICT" }),
    });
    expect(faculty.statusCode, faculty.body).toBe(201);
    const made = await scim(t.app, token, "/Groups", {
      method: "POST",
      body: group("IP-31", "ІП-31", { kind: "group", parent: "FICT" }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const unit = await t.app.db.selectFrom("units").selectAll().where("code", "=", "IP-31").executeTakeFirstOrThrow();
    expect(unit.ancestry).toEqual([faculty.json<GroupBody>().id, unit.id]);

    const student = await scim(t.app, token, "/Users", {
      method: "POST",
      body: scimUser("group-student", {
        [kpiUserSchema]: { studentRecords: [{ studentId: "G-1", unit: "IP-31", status: "studying" }] },
      }),
    });
    const read = (await scim(t.app, token, `/Groups/${unit.id}`)).json<GroupBody>();
    expect(read.members?.map((member) => [member.value, member.display])).toEqual([
      [student.json<{ id: string }>().id, "group-student"],
    ]);
    expect(read[kpiGroupSchema]).toEqual({ kind: "group", parent: "FICT" });

    const listed = await scim(
      t.app,
      token,
      `/Groups?filter=${encodeURIComponent('externalId eq "FICT" or displayName sw "ІП"')}&sortBy=displayName`,
    );
    expect(listed.json<{ Resources: GroupBody[] }>().Resources.map((g) => g.externalId)).toEqual(["IP-31", "FICT"]);
    const twice = await scim(t.app, token, "/Groups", {
      method: "POST",
      body: group("fict", "Інша", { kind: "faculty" }),
    });
    expect([twice.statusCode, twice.json<{ scimType: string }>().scimType]).toEqual([409, "uniqueness"]);
  });

  it("keeps members read-only and the code fixed, renames with PATCH, and refuses to delete a unit in use", async () => {
    const made = await scim(t.app, token, "/Groups", {
      method: "POST",
      body: group("OT", "Кафедра", { kind: "department" }),
    });
    const id = made.json<GroupBody>().id;
    const addMember = await scim(t.app, token, `/Groups/${id}`, {
      method: "PATCH",
      body: { schemas: [patchOpSchema], Operations: [{ op: "add", path: "members", value: [{ value: id }] }] },
    });
    expect([addMember.statusCode, addMember.json<{ scimType: string }>().scimType]).toEqual([400, "mutability"]);
    const recode = await scim(t.app, token, `/Groups/${id}`, {
      method: "PUT",
      body: group("OT-2", "Кафедра", { kind: "department" }),
    });
    expect([recode.statusCode, recode.json<{ scimType: string }>().scimType]).toEqual([400, "mutability"]);
    const renamed = await scim(t.app, token, `/Groups/${id}`, {
      method: "PATCH",
      headers: { "if-match": made.json<GroupBody>().meta.version },
      body: { schemas: [patchOpSchema], Operations: [{ op: "replace", path: "displayName", value: "Кафедра ОТ" }] },
    });
    expect([renamed.statusCode, renamed.json<GroupBody>().displayName]).toEqual([200, "Кафедра ОТ"]);
    const stale = await scim(t.app, token, `/Groups/${id}`, {
      method: "DELETE",
      headers: { "if-match": made.json<GroupBody>().meta.version },
    });
    expect(stale.statusCode).toBe(412);

    const person = await scim(t.app, token, "/Users", {
      method: "POST",
      body: scimUser("ot-employee", {
        [kpiUserSchema]: { employeePositions: [{ employeeId: "E-9", unit: "OT", status: "active" }] },
      }),
    });
    expect(person.statusCode).toBe(201);
    expect((await scim(t.app, token, `/Groups/${id}`, { method: "DELETE" })).statusCode).toBe(409);
    await scim(t.app, token, `/Users/${person.json<{ id: string }>().id}`, {
      method: "PATCH",
      body: { schemas: [patchOpSchema], Operations: [{ op: "remove", path: `${kpiUserSchema}:employeePositions` }] },
    });
    expect((await scim(t.app, token, `/Groups/${id}`, { method: "DELETE" })).statusCode).toBe(204);
    expect((await scim(t.app, token, `/Groups/${id}`)).statusCode).toBe(404);
    const audit = await t.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("event_type", "=", "scim_change")
      .where("reason", "like", "scim.group_%")
      .orderBy("audit_events.id")
      .execute();
    expect(audit.map((row) => row.reason)).toContain("scim.group_deleted");
  });
});
