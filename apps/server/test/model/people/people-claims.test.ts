import type { FindAccount, KoaContextWithOIDC } from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addAccessRule } from "../../../src/model/access/rules.ts";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { replacePersonRecords } from "../../../src/model/users/primary-records.ts";
import { createFindAccount } from "../../../src/protocols/oidc/claims.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

const password = "claims-passphrase-1";

describe.each(databaseKinds)("campus roles in the ticket and the kpi scope on %s", (kind) => {
  let t: TestApp;
  let personId: string;
  let site: Awaited<ReturnType<typeof addApplication>>;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["tickets"] });
    await upsertUnit(t.app.db, { code: "FIOT", kind: "faculty", nameUk: "ФІОТ", nameEn: "Faculty of Informatics" });
    const group = await upsertUnit(t.app.db, { code: "IP-21", kind: "group", nameUk: "ІП-21", parentCode: "FIOT" });
    const hr = await upsertUnit(t.app.db, { code: "HR", kind: "office", nameUk: "Відділ кадрів" });
    const person = await addPerson(t.app, { username: "two.roles", fullName: "Олена Дві-Ролі" }, password);
    personId = person.id;
    await replacePersonRecords(
      t.app.db,
      person.id,
      {
        students: [
          { studentId: "KV-OLD", status: "graduated", unitId: group.unit.id },
          { studentId: "KV-21", status: "studying", unitId: group.unit.id, speciality: "121", studyYear: 3 },
        ],
        positions: [{ employeeId: "E-5", status: "on_leave", unitId: hr.unit.id, position: "Лаборант" }],
      },
      "test",
    );
    site = await addApplication(t.app);
    await addAccessRule(t.app.db, site.application.id, { affiliation: "student" }, { actor: "test" });
  });
  afterAll(() => t.close());

  it("gives the ticket the primary records' ids, status, unit and faculty, and the affiliations", async () => {
    const cookie = await signIn(t.app, "two.roles", password);
    const redirect = await t.app.inject({ url: `/api/app-redirect?appId=${site.application.id}`, headers: { cookie } });
    const ticketId = new URL(String(redirect.headers.location)).searchParams.get("ticketId") ?? "";
    const query = new URLSearchParams({ ticketId, appId: site.application.id, appSecret: site.secret });
    const exchange = await t.app.inject({ url: `/api/ticket?${query}` });
    expect(exchange.statusCode, exchange.body).toBe(200);
    expect(exchange.json().data).toMatchObject({
      STUDENT_ID: "KV-21",
      EMPLOYEE_ID: "E-5",
      AFFILIATIONS: "student,staff,employee,member,alum",
      STUDENT_STATUS: "studying",
      STUDENT_UNIT: "IP-21",
      STUDENT_FACULTY: "FIOT",
      EMPLOYEE_STATUS: "on_leave",
      EMPLOYEE_UNIT: "HR",
      EMPLOYEE_FACULTY: "",
    });
  });

  it("releases the records and eduperson_scoped_affiliation under the kpi scope only", async () => {
    const account = await createFindAccount(t.app.db, "lll.kpi.ua")({} as KoaContextWithOIDC, personId);
    const withKpi = await account?.claims("userinfo", "openid kpi", {}, []);
    expect(withKpi).toMatchObject({
      kpi_student_id: "KV-21",
      eduperson_scoped_affiliation: [
        "student@lll.kpi.ua",
        "staff@lll.kpi.ua",
        "employee@lll.kpi.ua",
        "member@lll.kpi.ua",
        "alum@lll.kpi.ua",
      ],
      kpi_records: [
        expect.objectContaining({
          kind: "student",
          id: "KV-21",
          primary: true,
          speciality: "121",
          study_year: 3,
          unit: { code: "IP-21", name_uk: "ІП-21", name_en: "" },
          faculty: { code: "FIOT", name_uk: "ФІОТ", name_en: "Faculty of Informatics" },
        }),
        expect.objectContaining({ kind: "student", id: "KV-OLD", status: "graduated", primary: false }),
        expect.objectContaining({ kind: "employee", id: "E-5", position: "Лаборант", category: "staff" }),
      ],
    });
    const without = await account?.claims("userinfo", "openid profile", {}, []);
    expect(without).not.toHaveProperty("kpi_records");
  });

  it("gives a token's account the same roles, read with the person when the token's scope holds kpi", async () => {
    const findAccount = createFindAccount(t.app.db, "lll.kpi.ua");
    const withoutToken = await (await findAccount({} as KoaContextWithOIDC, personId))?.claims(
      "userinfo",
      "openid kpi",
      {},
      [],
    );
    expect(withoutToken).toHaveProperty("kpi_records", expect.arrayContaining([expect.anything()]));
    // A stand-in for the provider's token: findAccount reads only its application and scope.
    const token = (scope: string) => ({ clientId: site.application.id, scope }) as Parameters<FindAccount>[2];
    const kpiToken = await findAccount({} as KoaContextWithOIDC, personId, token("openid kpi"));
    expect(await kpiToken?.claims("userinfo", "openid kpi", {}, [])).toEqual(withoutToken);
    const profileToken = await findAccount({} as KoaContextWithOIDC, personId, token("openid profile"));
    expect(await profileToken?.claims("userinfo", "openid profile", {}, [])).not.toHaveProperty("kpi_records");
  });
});
