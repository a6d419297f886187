import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { okta } from "../protocols/scim/recorded/okta.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { signIn } from "../support/campus.ts";
import { scim, scimToken } from "../support/scim.ts";

const oldPassword = "a lantern over podil";
const newPassword = "chestnuts on khreshchatyk";

/**
 * Issue 59: what an attacker tries with what SCIM now accepts (pushed passwords, pushed group members,
 * grouped filters). Each answer is what the attacker would see.
 */
describe("attacks on SCIM password push, group push and filters", () => {
  let t: TestApp;
  let token = "";
  const call = (url: string, method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" = "GET", body?: unknown) =>
    scim(t.app, token, url, { method, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    t = await createTestApp("pglite");
    token = await scimToken(t.app, "okta");
  });
  afterAll(() => t.close());

  it("a session held by whoever knew the old password ends when the source system pushes a new one", async () => {
    const user = (
      await call("/Users", "POST", okta.createUserWithPassword("victim@kpi.ua", "00u-v", oldPassword))
    ).json<{
      id: string;
    }>();
    const stolen = await signIn(t.app, "victim@kpi.ua", oldPassword);
    expect((await t.app.inject({ url: "/user", headers: { cookie: stolen } })).statusCode).toBe(200);
    expect((await call(`/Users/${user.id}`, "PATCH", okta.changePassword(newPassword))).statusCode).toBe(200);
    expect((await t.app.inject({ url: "/user", headers: { cookie: stolen } })).statusCode).toBe(401);
  });

  it("the pushed password is in no answer and no audit row", async () => {
    const created = await call("/Users", "POST", okta.createUserWithPassword("quiet@kpi.ua", "00u-q", oldPassword));
    expect(created.body).not.toContain(oldPassword);
    const read = await call(`/Users/${created.json<{ id: string }>().id}`);
    expect(read.body).not.toContain(oldPassword);
    expect(read.body).not.toContain("password");
    const audit = await t.app.db.selectFrom("audit_events").select("details").orderBy("audit_events.id").execute();
    expect(JSON.stringify(audit)).not.toContain(oldPassword);
  });

  it("a pushed group cannot be made to hold a person deleted over SCIM, an id that is no User, or a Group", async () => {
    const group = (await call("/Groups", "POST", okta.pushGroup("Пастка"))).json<{ id: string }>();
    const gone = (await call("/Users", "POST", okta.createUser("gone@kpi.ua", "00u-g"))).json<{ id: string }>();
    expect((await call(`/Users/${gone.id}`, "DELETE")).statusCode).toBe(204);
    for (const value of [gone.id, "not-a-uuid", "' or 1=1 --", group.id]) {
      const refused = await call(`/Groups/${group.id}`, "PATCH", okta.addMember(value, "x"));
      expect([refused.statusCode, refused.json<{ scimType: string }>().scimType]).toEqual([400, "invalidValue"]);
    }
    expect((await call(`/Groups/${group.id}`)).json<{ members?: unknown[] }>().members).toBeUndefined();
  });

  it("a filter built to explode into alternatives, or nested deep, is a 400, never a 5xx or a stall", async () => {
    const pair = (n: number) => `(userName eq "a${n}" or userName eq "b${n}")`;
    const exploding = Array.from({ length: 8 }, (_, n) => pair(n)).join(" and ");
    const deep = `${"(".repeat(200)}userName eq "a"${")".repeat(200)}`;
    for (const filter of [exploding, `not (${exploding})`]) {
      const refused = await call(`/Users?filter=${encodeURIComponent(filter)}`);
      expect([refused.statusCode, refused.json<{ scimType: string }>().scimType]).toEqual([400, "invalidFilter"]);
    }
    const nested = await call(`/Users?filter=${encodeURIComponent(deep)}`);
    expect(nested.statusCode).toBeLessThan(500);
  });
});
