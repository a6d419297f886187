import { type CasServices, casServicesSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addApplication } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

/** The console's CAS services of an application (docs/cas.md): what an admin registers, a helpdesk cannot. */
describe.each(aboveModelDatabases)("the console's CAS services (%s)", (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    admin = (await addOperator(t.app, ["admin"])).cookie;
  });
  afterAll(() => t.close());

  const path = (id: string) => `/api/admin/applications/${id}/cas-services`;
  const services = async (id: string, cookie = admin): Promise<CasServices> =>
    casServicesSchema.parse((await t.app.inject({ url: path(id), headers: { cookie } })).json());

  it("registers, changes and removes services, audited, and gives the CAS server URL", async () => {
    const { application } = await addApplication(t.app);
    expect(await services(application.id)).toEqual({ serverUrl: "http://localhost:3000/cas", services: [] });
    const added = await postJson(
      t.app,
      path(application.id),
      { url: "https://moodle.kpi.ua/course/", prefix: true, singleLogout: true },
      { headers: { cookie: admin } },
    );
    expect(added.statusCode).toBe(200);
    expect(casServicesSchema.parse(added.json()).services).toEqual([
      {
        url: "https://moodle.kpi.ua/course/",
        match: "prefix",
        singleLogout: true,
        proxy: false,
        attributes: expect.not.arrayContaining(["taxId"]),
        renames: {},
      },
    ]);
    const changed = await postJson(
      t.app,
      path(application.id),
      { url: "https://moodle.kpi.ua/course/", prefix: true, proxy: true, attributes: ["uid"] },
      { headers: { cookie: admin } },
    );
    expect(casServicesSchema.parse(changed.json()).services[0]).toMatchObject({
      proxy: true,
      singleLogout: false,
      attributes: ["uid"],
    });
    const removed = await postJson(
      t.app,
      `${path(application.id)}/remove`,
      { url: "https://moodle.kpi.ua/course/" },
      { headers: { cookie: admin } },
    );
    expect(casServicesSchema.parse(removed.json()).services).toEqual([]);
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "details"])
      .where("application_id", "=", application.id)
      .orderBy("audit_events.id")
      .execute();
    expect(audited.map((row) => row.event_type)).toEqual([
      "application_updated",
      "application_updated",
      "application_updated",
    ]);
  });

  it("refuses an open pattern (400) and another application's addresses (409); a helpdesk operator may not change them", async () => {
    const { application } = await addApplication(t.app);
    const { application: other } = await addApplication(t.app);
    const bad = await postJson(
      t.app,
      path(application.id),
      { url: "https://*.kpi.ua/", prefix: true },
      { headers: { cookie: admin } },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe("cas.service_invalid");
    await postJson(
      t.app,
      path(application.id),
      { url: "https://wiki.kpi.ua/", prefix: true },
      { headers: { cookie: admin } },
    );
    const taken = await postJson(
      t.app,
      path(other.id),
      { url: "https://wiki.kpi.ua/page" },
      { headers: { cookie: admin } },
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("cas.service_taken");
    const helpdesk = (await addOperator(t.app, ["helpdesk"])).cookie;
    const refused = await postJson(
      t.app,
      path(other.id),
      { url: "https://blog.kpi.ua/" },
      { headers: { cookie: helpdesk } },
    );
    expect(refused.statusCode).toBe(403);
  });

  it("keeps a service's renames, audited; refuses ones a CAS client could not read or that would hide an attribute (400 cas.rename_invalid)", async () => {
    const { application } = await addApplication(t.app);
    const url = "https://gitlab.kpi.ua/users/auth/cas3/callback?url=https%3A%2F%2Fgitlab.kpi.ua%2F";
    const register = (body: Record<string, unknown>) =>
      postJson(t.app, path(application.id), { url, ...body }, { headers: { cookie: admin } });
    const saved = await register({
      attributes: ["uid", "mail", "displayName"],
      renames: { mail: "email", uid: "username" },
    });
    expect(saved.statusCode).toBe(200);
    expect(casServicesSchema.parse(saved.json()).services[0]).toMatchObject({
      attributes: ["uid", "mail", "displayName"],
      renames: { mail: "email", uid: "username" },
    });
    const audited = await t.app.db
      .selectFrom("audit_events")
      .select("details")
      .where("application_id", "=", application.id)
      .executeTakeFirstOrThrow();
    expect(audited.details).toMatchObject({ renames: { mail: "email", uid: "username" } });

    for (const [renames, attribute, problem] of [
      [{ mail: "e mail" }, "mail", "bad_name"],
      [{ mail: "cas:email" }, "mail", "bad_name"],
      [{ uid: "9uid" }, "uid", "bad_name"],
      [{ uid: "isFromNewLogin" }, "uid", "reserved"],
      [{ sn: "surname" }, "sn", "not_released"],
      [{ mail: "displayName" }, "displayName", "collision"],
      [{ mail: "name", uid: "name" }, "mail", "collision"],
    ] as const) {
      const refused = await register({ attributes: ["uid", "mail", "displayName"], renames });
      expect(refused.statusCode, JSON.stringify(renames)).toBe(400);
      expect(refused.json(), JSON.stringify(renames)).toMatchObject({
        code: "cas.rename_invalid",
        details: [{ path: `body.renames.${attribute}`, message: problem }],
      });
    }
    // Renaming what the default set releases needs no list of attributes; the e-mail is not in that set.
    expect((await register({ renames: { uid: "username" } })).statusCode).toBe(200);
    expect((await register({ renames: { mail: "email" } })).json().details[0].message).toBe("not_released");
    expect((await services(application.id)).services[0]?.renames).toEqual({ uid: "username" });
  });

  it("refuses the e-mail to an application registered on the developers' page (400 cas.mail_not_consented): its people's consent does not list it", async () => {
    const { application } = await addApplication(t.app);
    await t.app.db.updateTable("applications").set({ community: true }).where("id", "=", application.id).execute();
    const url = "https://community-wiki.kpi.ua/";
    const body = (attributes: string[]) => ({ url, attributes });
    const refused = await postJson(t.app, path(application.id), body(["uid", "mail"]), { headers: { cookie: admin } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("cas.mail_not_consented");
    const named = await postJson(t.app, path(application.id), body(["uid", "givenName", "sn"]), {
      headers: { cookie: admin },
    });
    expect(named.statusCode).toBe(200);
  });
});
