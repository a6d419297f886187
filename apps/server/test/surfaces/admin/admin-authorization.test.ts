import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointsOf } from "../../fuzz/endpoints.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, manualClock } from "../../support/campus.ts";
import { addOperator, sessionCookieOf } from "../../support/console.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { type ConsoleCall, consoleCalls, type Role } from "./console-calls.ts";

describe.each(aboveModelDatabases)("console authorization on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let targetId = "";
  let applicationId = "";
  let cookies: Record<"ordinary" | Role | "adminByPassword", string>;

  beforeAll(async () => {
    // The console's Wi-Fi actions disconnect devices through the RADIUS protocol's disconnects.
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: ["radius"] });
    const target = await addPerson(t.app, { username: "target", fullName: "Ціль Пошуку" }, "target passphrase 1");
    targetId = target.id;
    applicationId = (await addApplication(t.app)).application.id;
    const admin = await addOperator(t.app, ["admin"]);
    cookies = {
      ordinary: (await addOperator(t.app, [])).cookie,
      helpdesk: (await addOperator(t.app, ["helpdesk"])).cookie,
      admin: admin.cookie,
      adminByPassword: await sessionCookieOf(t.app, admin.person.id, "PASSWORD"),
    };
  });
  afterAll(() => t.close());

  let sent = 0;
  function send(call: ConsoleCall, cookie?: string) {
    sent += 1;
    const url = `${call.route
      .replace("{id}", targetId)
      .replace("{app}", applicationId)
      .replace("{job}", "00000000-0000-4000-8000-000000000000")
      .replace("{passwordId}", "00000000-0000-4000-8000-000000000000")
      .replace("{name}", "never-registered")}${call.query ?? ""}`;
    const body =
      call.body && JSON.parse(JSON.stringify(call.body).replace("{app}", applicationId).replace("{n}", String(sent)));
    const options: InjectOptions = {
      method: call.method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(call.method === "POST" ? { origin: TEST_ORIGIN, "content-type": "application/json" } : {}),
      },
      ...(call.method === "POST" ? { payload: JSON.stringify(body ?? {}) } : {}),
    };
    return t.app.inject(options);
  }

  it("has a row in this test for every console endpoint of the API reference", () => {
    const documented = endpointsOf(t.app)
      .filter((endpoint) => endpoint.path.startsWith("/api/admin/"))
      .map(
        (endpoint) =>
          `${endpoint.method} ${endpoint.path.replace("/applications/{id}", "/applications/{app}").replace("/import/jobs/{id}", "/import/jobs/{job}")}`,
      )
      .sort();
    expect(documented).toEqual(consoleCalls.map((call) => `${call.method} ${call.route}`).sort());
  });

  for (const call of consoleCalls) {
    describe(`${call.method} ${call.route}`, () => {
      it("asks an anonymous caller to sign in", async () => {
        const response = await send(call);
        expect(response.statusCode).toBe(401);
        expect(response.json().code).toBe("auth.not_authenticated");
      });

      it("refuses a person without a console role", async () => {
        const response = await send(call, cookies.ordinary);
        expect(response.statusCode).toBe(403);
        expect(response.json().code).toBe("admin.forbidden");
      });

      it(`lets ${call.allowed.join(" and ")} in, and no one else`, async () => {
        for (const role of ["helpdesk", "admin"] as const) {
          const response = await send(call, cookies[role]);
          if (call.allowed.includes(role)) {
            expect(response.statusCode, `${role}: ${response.body}`).toBe(call.answer?.status ?? 200);
            if (call.answer?.code) expect(response.json().code).toBe(call.answer.code);
          } else expect(response.json().code, role).toBe("admin.forbidden");
        }
      });

      it("asks an admin to step up after a weak sign-in", async () => {
        const response = await send(call, cookies.adminByPassword);
        expect(response.statusCode).toBe(403);
        expect(response.json().code).toBe("auth.step_up_required");
      });
    });
  }

  it("helpdesk acts only on people with no role above its own: an admin's account is refused with a stable code", async () => {
    const helpdesk = await addOperator(t.app, ["helpdesk"]);
    const otherHelpdesk = await addOperator(t.app, ["helpdesk"]);
    const admin = await addOperator(t.app, ["admin"]);
    const actions = [
      "/api/admin/people/{id}/unlock",
      "/api/admin/people/{id}/sessions/end",
      "/api/admin/people/{id}/second-factor/reset",
      "/api/admin/people/{id}/recovery-mail",
    ];
    const on = (route: string, targetId: string, cookie: string) =>
      t.app.inject({
        method: "POST",
        url: route.replace("{id}", targetId),
        headers: { cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
        payload: "{}",
      });
    for (const route of actions) {
      const refused = await on(route, admin.person.id, helpdesk.cookie);
      expect(refused.statusCode, route).toBe(403);
      expect(refused.json().code, route).toBe("admin.person_outranks_operator");
    }
    // The admin's sessions are still there; looking at the admin is still allowed.
    expect(
      await t.app.db.selectFrom("sessions").select("id").where("user_id", "=", admin.person.id).execute(),
    ).toHaveLength(1);
    const looked = await t.app.inject({
      url: `/api/admin/people/${admin.person.id}`,
      headers: { cookie: helpdesk.cookie },
    });
    expect(looked.statusCode).toBe(200);
    // An equal role is fine, and an admin acts on anyone.
    expect((await on(actions[0] ?? "", otherHelpdesk.person.id, helpdesk.cookie)).statusCode).toBe(200);
    expect((await on(actions[0] ?? "", helpdesk.person.id, admin.cookie)).statusCode).toBe(200);
    const anotherAdmin = await addOperator(t.app, ["admin"]);
    expect((await on(actions[1] ?? "", anotherAdmin.person.id, admin.cookie)).statusCode).toBe(200);
  });

  it("asks for a step-up once the strong sign-in is more than an hour old", async () => {
    const fresh = await sessionCookieOf(t.app, (await addOperator(t.app, ["admin"])).person.id, "DIIA");
    expect((await send(consoleCalls[0] as ConsoleCall, fresh)).statusCode).toBe(200);
    clock.advance(3601);
    const stale = await send(consoleCalls[0] as ConsoleCall, fresh);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe("auth.step_up_required");
  });
});
