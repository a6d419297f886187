import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { kpiUserSchema, patchOpSchema, scim, scimToken, scimUser } from "../../support/scim.ts";
import { enterpriseUserSchema } from "./recorded/entra.ts";

interface UserBody {
  id: string;
  active: boolean;
  name: { givenName?: string; familyName?: string };
  emails?: { value: string; primary?: boolean }[];
  meta: { version: string };
  [enterpriseUserSchema]?: Record<string, unknown>;
}
interface ErrorBody {
  status: string;
  scimType: string;
  detail: string;
}

/**
 * RFC 7644 §3.5.2: an add or replace without a path carries an object of attributes. Each attribute that
 * works by path works so too, and one the server refuses by path is refused so too, never dropped under a 200.
 */
describe.each(aboveModelDatabases)("SCIM PATCH without a path (%s)", (kind) => {
  let t: TestApp;
  let token = "";
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "hr");
  });
  afterAll(() => t.close());

  async function person(): Promise<UserBody> {
    serial += 1;
    const body = scimUser(`pathless-${serial}`, {
      name: { givenName: "Олена", familyName: "Петренко" },
      emails: [{ value: `old-${serial}@kpi.ua`, primary: true, type: "work" }],
      [enterpriseUserSchema]: { employeeNumber: "E-1", department: "Кафедра ІПІ" },
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", kpiUserSchema, enterpriseUserSchema],
    });
    const created = await scim(t.app, token, "/Users", { method: "POST", body });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<UserBody>();
  }
  const patch = (id: string, Operations: unknown[]) =>
    scim(t.app, token, `/Users/${id}`, { method: "PATCH", body: { schemas: [patchOpSchema], Operations } });
  const read = async (id: string) => (await scim(t.app, token, `/Users/${id}`)).json<UserBody>();

  it("replaces the e-mail list: GET shows the new address and the old one is gone", async () => {
    const user = await person();
    const email = { value: "new@kpi.ua", primary: true, type: "work" };
    const response = await patch(user.id, [{ op: "replace", value: { emails: [email] } }]);
    expect(response.statusCode, response.body).toBe(200);
    expect((await read(user.id)).emails?.map((item) => item.value)).toEqual(["new@kpi.ua"]);
    const row = await t.app.db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe("new@kpi.ua");
  });

  it("takes dotted keys and a name object, leaving the name parts it does not name", async () => {
    const user = await person();
    expect((await patch(user.id, [{ op: "Replace", value: { "name.givenName": "Марта" } }])).statusCode).toBe(200);
    expect((await read(user.id)).name).toMatchObject({ givenName: "Марта", familyName: "Петренко" });
    expect((await patch(user.id, [{ op: "replace", value: { name: { familyName: "Коваль" } } }])).statusCode).toBe(200);
    expect((await read(user.id)).name).toMatchObject({ givenName: "Марта", familyName: "Коваль" });
  });

  it("active false disables the person; the legacy string form too", async () => {
    for (const active of [false, "False"]) {
      const user = await person();
      expect((await patch(user.id, [{ op: "replace", value: { active } }])).statusCode).toBe(200);
      expect((await read(user.id)).active).toBe(false);
      const row = await t.app.db
        .selectFrom("users")
        .select("status")
        .where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("disabled");
    }
  });

  it("sets an enterprise attribute by its URN key and by the extension's object, keeping the others", async () => {
    const user = await person();
    const byKey = await patch(user.id, [
      { op: "replace", value: { [`${enterpriseUserSchema}:employeeNumber`]: "E-2" } },
    ]);
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect((await read(user.id))[enterpriseUserSchema]).toMatchObject({
      employeeNumber: "E-2",
      department: "Кафедра ІПІ",
    });
    await patch(user.id, [{ op: "replace", value: { [enterpriseUserSchema]: { department: "Деканат" } } }]);
    expect((await read(user.id))[enterpriseUserSchema]).toMatchObject({ employeeNumber: "E-2", department: "Деканат" });
  });

  it("applies every attribute of a mixed operation, as the same operations by path do", async () => {
    const [pathless, byPath] = [await person(), await person()];
    const value = {
      emails: [{ value: "mixed@kpi.ua", primary: true, type: "work" }],
      "name.givenName": "Ірина",
      [`${enterpriseUserSchema}:employeeNumber`]: "E-9",
      active: false,
    };
    expect((await patch(pathless.id, [{ op: "replace", value }])).statusCode).toBe(200);
    const operations = Object.entries(value).map(([path, item]) => ({ op: "replace", path, value: item }));
    expect((await patch(byPath.id, operations)).statusCode).toBe(200);
    const [a, b] = [await read(pathless.id), await read(byPath.id)];
    expect(a.emails?.map((item) => item.value)).toEqual(["mixed@kpi.ua"]);
    expect([a.name.givenName, a.active, a[enterpriseUserSchema]?.employeeNumber]).toEqual(["Ірина", false, "E-9"]);
    expect([b.emails, b.name, b.active, b[enterpriseUserSchema]]).toEqual([
      a.emails,
      a.name,
      a.active,
      a[enterpriseUserSchema],
    ]);
  });

  it("refuses an unknown or read-only attribute in both forms, and applies nothing of that PATCH", async () => {
    const user = await person();
    const cases: [Record<string, unknown>, string][] = [
      [{ nickname2: "x" }, "invalidPath"],
      [{ groups: [{ value: user.id }] }, "mutability"],
      [{ "meta.created": "2020-01-01T00:00:00Z" }, "mutability"],
      [{ [`${kpiUserSchema}:affiliations`]: ["staff"] }, "mutability"],
      [{ "roles[primary eq true].value": "admin" }, "mutability"],
    ];
    for (const [attribute, scimType] of cases) {
      const [path, item] = Object.entries(attribute)[0] ?? [];
      const forms = [
        [{ op: "replace", value: { emails: [{ value: "never@kpi.ua", primary: true }], ...attribute } }],
        [
          { op: "replace", path: "emails", value: [{ value: "never@kpi.ua", primary: true }] },
          { op: "replace", path, value: item },
        ],
      ];
      for (const operations of forms) {
        const refused = await patch(user.id, operations);
        expect(refused.statusCode, `${path}: ${refused.body}`).toBe(400);
        expect(refused.json<ErrorBody>().scimType).toBe(scimType);
        expect(refused.json<ErrorBody>().detail).toContain(String(path).replace(/\[.*$/, ""));
      }
    }
    const after = await read(user.id);
    expect(after.emails?.map((item) => item.value)).toEqual([user.emails?.[0]?.value]);
    expect(after.meta.version).toBe(user.meta.version);
  });
});
