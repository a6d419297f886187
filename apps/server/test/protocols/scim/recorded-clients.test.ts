import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { scim, scimToken } from "../../support/scim.ts";
import { enterpriseUserSchema, entra } from "./recorded/entra.ts";
import { okta } from "./recorded/okta.ts";

interface UserBody {
  id: string;
  userName: string;
  externalId?: string;
  displayName: string;
  name: { formatted?: string; givenName?: string; familyName?: string };
  emails?: { value: string; type?: string }[];
  active: boolean;
  title?: string;
  meta: { location: string; version: string };
  [enterpriseUserSchema]?: Record<string, unknown>;
}
interface GroupBody {
  id: string;
  displayName: string;
  members?: { value: string }[];
  meta: { location: string; version: string };
}
interface ListBody<T> {
  totalResults: number;
  itemsPerPage: number;
  startIndex: number;
  Resources: T[];
}

/**
 * Issue 36: what Entra ID and Okta send while provisioning, deprovisioning and pushing groups, run against
 * the server as those clients run it (request after request, each answer read the way they read it).
 */
describe.each(aboveModelDatabases)("SCIM as Entra ID and Okta send it (%s)", (kind) => {
  let t: TestApp;
  let token = "";
  const call = (url: string, method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", body?: unknown) =>
    scim(t.app, token, url, { ...(method ? { method } : {}), ...(body === undefined ? {} : { body }) });

  const memberIds = async (groupId: string) =>
    ((await call(`/Groups/${groupId}`)).json<GroupBody>().members ?? []).map((member) => member.value).sort();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "entra");
  });
  afterAll(() => t.close());

  it("Entra: the default mapping creates a person (enterprise extension, roles: []) and reads back what it sent", async () => {
    const userName = "o.petrenko@kpi.ua";
    const none = (await call(entra.findUser(userName))).json<ListBody<UserBody>>();
    expect([none.totalResults, none.Resources ?? []]).toEqual([0, []]);
    const created = await call("/Users", "POST", entra.createUser(userName, "9c1e0f7a-entra"));
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<UserBody>();
    expect(created.headers.location).toBe(`${TEST_PUBLIC_URL}/scim/v2/Users/${user.id}`);
    expect(user.meta.location).toBe(`${TEST_PUBLIC_URL}/scim/v2/Users/${user.id}`);
    expect(user[enterpriseUserSchema]).toMatchObject({ employeeNumber: "E-20931", department: "Кафедра ІПІ" });
    expect(user.title).toBe("Лаборант");
    const found = (await call(entra.findByExternalId("9c1e0f7a-entra"))).json<ListBody<UserBody>>();
    expect(found.Resources.map((item) => item.id)).toEqual([user.id]);
  });

  it("Entra: PATCH by path changes what it names, a no-op PATCH keeps the version, Add of a work e-mail adds it", async () => {
    const user = (await call("/Users", "POST", entra.createUser("m.koval@kpi.ua", "entra-koval"))).json<UserBody>();
    const renamed = await call(`/Users/${user.id}`, "PATCH", entra.replaceDisplayName("Коваль Марія"));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<UserBody>().displayName).toBe("Коваль Марія");
    const both = (
      await call(`/Users/${user.id}`, "PATCH", entra.replaceEmailAndFamilyName("m.koval2@kpi.ua", "Ковальчук"))
    ).json<UserBody>();
    expect(both.emails?.[0]?.value).toBe("m.koval2@kpi.ua");
    expect(both.name.familyName).toBe("Ковальчук");
    expect(both.displayName).toMatch(/^Ковальчук /);
    const given = (await call(`/Users/${user.id}`, "PATCH", entra.replaceGivenName("Марта"))).json<UserBody>();
    expect([given.name.familyName, given.name.givenName]).toEqual(["Ковальчук", "Марта"]);
    const again = await call(`/Users/${user.id}`, "PATCH", entra.replaceGivenName("Марта"));
    expect(again.json<UserBody>().meta.version).toBe(given.meta.version);

    const bare = entra.createUser("n.bez@kpi.ua", "entra-no-mail");
    const withoutMail = (await call("/Users", "POST", { ...bare, emails: undefined })).json<UserBody>();
    expect(withoutMail.emails).toBeUndefined();
    const added = await call(`/Users/${withoutMail.id}`, "PATCH", entra.addWorkEmail("n.bez@kpi.ua"));
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<UserBody>().emails?.map((email) => email.value)).toEqual(["n.bez@kpi.ua"]);
  });

  it('Entra: enterprise attributes by path, and the legacy "False" string deactivates', async () => {
    const manager = (await call("/Users", "POST", entra.createUser("head@kpi.ua", "entra-head"))).json<UserBody>();
    const user = (await call("/Users", "POST", entra.createUser("staff@kpi.ua", "entra-staff"))).json<UserBody>();
    const managed = await call(`/Users/${user.id}`, "PATCH", entra.addManager(manager.id));
    expect(managed.statusCode, managed.body).toBe(200);
    expect(managed.json<UserBody>()[enterpriseUserSchema]?.manager).toMatchObject({ value: manager.id });
    const moved = (await call(`/Users/${user.id}`, "PATCH", entra.replaceDepartment("Деканат"))).json<UserBody>();
    expect(moved[enterpriseUserSchema]?.department).toBe("Деканат");
    const disabled = await call(`/Users/${user.id}`, "PATCH", entra.disableLegacy);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json<UserBody>().active).toBe(false);
  });

  it("Entra and Okta: several attributes in one PATCH without a path all change, as by path", async () => {
    const user = (await call("/Users", "POST", entra.createUser("k.lys@kpi.ua", "entra-lys"))).json<UserBody>();
    const patched = await call(
      `/Users/${user.id}`,
      "PATCH",
      entra.replaceWithoutPath("k.lys2@kpi.ua", "Ксенія", "E-7"),
    );
    expect(patched.statusCode, patched.body).toBe(200);
    const read = (await call(`/Users/${user.id}`)).json<UserBody>();
    expect(read.emails?.map((email) => email.value)).toEqual(["k.lys2@kpi.ua"]);
    expect([read.name.givenName, read.name.familyName]).toEqual(["Ксенія", "Петренко"]);
    expect(read[enterpriseUserSchema]).toMatchObject({ employeeNumber: "E-7", department: "Кафедра ІПІ" });
    const okta1 = (await call("/Users", "POST", okta.createUser("o.moroz@kpi.ua", "okta-moroz"))).json<UserBody>();
    expect(
      (await call(`/Users/${okta1.id}`, "PATCH", okta.replaceProfile("o.moroz2@kpi.ua", "Ольга"))).statusCode,
    ).toBe(200);
    const after = (await call(`/Users/${okta1.id}`)).json<UserBody>();
    expect(after.emails?.map((email) => email.value)).toEqual(["o.moroz2@kpi.ua"]);
    expect([after.name.givenName, after.name.familyName]).toEqual(["Ольга", "Шевчук"]);
  });

  it("Entra: a person deleted and made again keeps the source's externalId free; a live holder is named", async () => {
    const first = (await call("/Users", "POST", entra.createUser("leaver@kpi.ua", "entra-reused"))).json<UserBody>();
    expect((await call(`/Users/${first.id}`, "DELETE")).statusCode).toBe(204);
    const second = await call("/Users", "POST", entra.createUser("joiner@kpi.ua", "entra-reused"));
    expect(second.statusCode, second.body).toBe(201);
    const holder = second.json<UserBody>();
    expect(holder.externalId).toBe("entra-reused");
    const clash = await call("/Users", "POST", entra.createUser("third@kpi.ua", "entra-reused"));
    expect(clash.statusCode).toBe(409);
    expect(clash.json<{ detail: string }>().detail).toContain(holder.id);
  });

  it("Okta: lookup, create (groups: []), full PUT, deactivate and reactivate without a path", async () => {
    const userName = "t.shevchuk@kpi.ua";
    const none = (await call(okta.findUser(userName))).json<ListBody<UserBody>>();
    expect(none.totalResults).toBe(0);
    const created = await call("/Users", "POST", okta.createUser(userName, "00ujl29u0le5T6Aj10h7"));
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<UserBody>();
    expect(user.displayName).toBe("Тарас Шевчук");
    const found = (await call(okta.findUser(userName))).json<ListBody<UserBody>>();
    expect([found.totalResults, found.itemsPerPage, found.Resources[0]?.id]).toEqual([1, 1, user.id]);
    const put = await call(
      `/Users/${user.id}`,
      "PUT",
      okta.replaceUser(user.id, userName, "00ujl29u0le5T6Aj10h7", "Тарасик"),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<UserBody>().displayName).toBe("Тарасик Шевчук");
    expect((await call(`/Users/${user.id}`, "PATCH", okta.deactivate)).json<UserBody>().active).toBe(false);
    expect((await call(`/Users/${user.id}`, "PATCH", okta.reactivate)).json<UserBody>().active).toBe(true);
  });

  it("Okta: group push needs only a displayName, then pushes members: add, remove by filter, and a full PUT", async () => {
    const pushed = await call("/Groups", "POST", okta.pushGroup("Наукова рада"));
    expect(pushed.statusCode, pushed.body).toBe(201);
    const group = pushed.json<GroupBody>();
    expect(group.meta.location).toBe(`${TEST_PUBLIC_URL}/scim/v2/Groups/${group.id}`);
    const found = (await call(okta.findGroup("Наукова рада"))).json<ListBody<{ id: string }>>();
    expect(found.Resources.map((item) => item.id)).toEqual([group.id]);
    const renamed = await call(`/Groups/${group.id}`, "PATCH", okta.renameGroup(group.id, "Вчена рада"));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ displayName: string }>().displayName).toBe("Вчена рада");
    const first = (await call("/Users", "POST", okta.createUser("member@kpi.ua", "okta-member"))).json<UserBody>();
    const second = (await call("/Users", "POST", okta.createUser("second@kpi.ua", "okta-second"))).json<UserBody>();
    const added = await call(`/Groups/${group.id}`, "PATCH", okta.addMember(first.id, "member@kpi.ua"));
    expect(added.statusCode, added.body).toBe(200);
    await call(`/Groups/${group.id}`, "PATCH", okta.addMember(second.id, "second@kpi.ua"));
    expect(await memberIds(group.id)).toEqual([first.id, second.id].sort());
    const removed = await call(`/Groups/${group.id}`, "PATCH", okta.removeMember(first.id));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await memberIds(group.id)).toEqual([second.id]);
    const put = await call(
      `/Groups/${group.id}`,
      "PUT",
      okta.replaceGroup(group.id, "Вчена рада", [{ value: first.id, display: "member@kpi.ua" }]),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(await memberIds(group.id)).toEqual([first.id]);
    const emptied = await call(`/Groups/${group.id}`, "PATCH", okta.removeMember(first.id));
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(await memberIds(group.id)).toEqual([]);
  });

  it("Entra: creates a group with its externalId, adds two members, removes one by value and one by filter", async () => {
    const created = await call("/Groups", "POST", entra.createGroup("Група ІП-21 (Entra)", "entra-group-1"));
    expect(created.statusCode, created.body).toBe(201);
    const group = created.json<GroupBody>();
    const found = (await call(entra.findGroup("Група ІП-21 (Entra)"))).json<ListBody<{ id: string }>>();
    expect(found.Resources.map((item) => item.id)).toEqual([group.id]);
    const a = (await call("/Users", "POST", entra.createUser("a.group@kpi.ua", "entra-ga"))).json<UserBody>();
    const b = (await call("/Users", "POST", entra.createUser("b.group@kpi.ua", "entra-gb"))).json<UserBody>();
    const added = await call(`/Groups/${group.id}`, "PATCH", entra.addMembers(a.id, b.id));
    expect(added.statusCode, added.body).toBe(200);
    expect(await memberIds(group.id)).toEqual([a.id, b.id].sort());
    const byValue = await call(`/Groups/${group.id}`, "PATCH", entra.removeMembers(a.id));
    expect(byValue.statusCode, byValue.body).toBe(200);
    expect(await memberIds(group.id)).toEqual([b.id]);
    const byFilter = await call(`/Groups/${group.id}`, "PATCH", entra.removeMemberByFilter(b.id));
    expect(byFilter.statusCode, byFilter.body).toBe(200);
    expect(await memberIds(group.id)).toEqual([]);
    const stranger = await call(
      `/Groups/${group.id}`,
      "PATCH",
      entra.addMembers("00000000-0000-4000-8000-000000000000"),
    );
    expect([stranger.statusCode, stranger.json<{ scimType: string }>().scimType]).toEqual([400, "invalidValue"]);
  });

  it("a unit KPI ID derives from records keeps its members read-only and says which rule", async () => {
    const unit = (
      await call("/Groups", "POST", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        displayName: "Кафедра ІПІ",
        externalId: "IPI-PUSH",
        "urn:ietf:params:scim:schemas:extension:kpi:2.0:Group": { kind: "department" },
      })
    ).json<GroupBody>();
    const user = (await call("/Users", "POST", okta.createUser("derived@kpi.ua", "okta-derived"))).json<UserBody>();
    for (const body of [okta.addMember(user.id, "derived@kpi.ua"), entra.addMembers(user.id)]) {
      const refused = await call(`/Groups/${unit.id}`, "PATCH", body);
      expect(refused.statusCode).toBe(400);
      const error = refused.json<{ scimType: string; detail: string }>();
      expect(error.scimType).toBe("mutability");
      expect(error.detail).toMatch(/follow from the Users' student records and employee positions/);
    }
    expect(await memberIds(unit.id)).toEqual([]);
  });
});
