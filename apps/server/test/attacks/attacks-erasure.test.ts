import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/app.ts";
import { addPerson, signIn } from "../support/campus.ts";
import { addOperator } from "../support/console.ts";
import { databaseKinds } from "../support/databases.ts";

const password = "not to be erased by anyone";

/** Issue 40: attacks on the console's erasure, the one action that cannot be undone. */
describe.each(databaseKinds)("attacks on erasing a person (%s)", (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof addOperator>>;
  let victim: { id: string; username: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await addOperator(t.app, ["admin"]);
    victim = await addPerson(t.app, { username: "v.target", fullName: "Вікторія Ціль" }, password);
  });
  afterAll(() => t.close());

  const erase = (id: string, body: string, headers: Record<string, string>) =>
    t.app.inject({ method: "POST", url: `/api/admin/people/${id}/erase`, payload: body, headers });
  const stillThere = async () =>
    (await t.app.db.selectFrom("users").select("anonymised_at").where("id", "=", victim.id).executeTakeFirstOrThrow())
      .anonymised_at === null;

  it("another site cannot make an admin's browser erase someone: wrong origin, form bodies, no origin", async () => {
    const json = JSON.stringify({ username: "v.target" });
    const attempts: Record<string, string>[] = [
      { cookie: admin.cookie, origin: "https://evil.example", "content-type": "application/json" },
      { cookie: admin.cookie, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      { cookie: admin.cookie, origin: TEST_ORIGIN, "content-type": "text/plain" },
      { cookie: admin.cookie, "content-type": "application/json", "sec-fetch-site": "cross-site" },
    ];
    for (const headers of attempts) {
      const answer = await erase(victim.id, json, headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
    }
    expect(await stillThere()).toBe(true);
  });

  it("a person without a role, helpdesk, and a stolen password-only admin session are refused", async () => {
    const json = JSON.stringify({ username: "v.target" });
    const headers = (cookie: string) => ({ cookie, origin: TEST_ORIGIN, "content-type": "application/json" });
    const plain = await signIn(t.app, "v.target", password);
    const helpdesk = await addOperator(t.app, ["helpdesk"]);
    const weak = await addOperator(t.app, ["admin"], "PASSWORD");
    const answers = [
      await erase(admin.person.id, JSON.stringify({ username: admin.person.username }), headers(plain)),
      await erase(victim.id, json, headers(helpdesk.cookie)),
      await erase(victim.id, json, headers(weak.cookie)),
      await erase(victim.id, json, { origin: TEST_ORIGIN, "content-type": "application/json" }),
    ];
    expect(answers.map((answer) => [answer.statusCode, answer.json().code])).toEqual([
      [403, "admin.forbidden"],
      [403, "admin.forbidden"],
      [403, "auth.step_up_required"],
      [401, "auth.not_authenticated"],
    ]);
    expect(await stillThere()).toBe(true);
  });

  it("a confirmation for someone else, a lookalike name or junk never erases; two erasures at once erase once", async () => {
    const other = await addPerson(t.app, { username: "o.other", fullName: "Інша Особа" }, password);
    const headers = { cookie: admin.cookie, origin: TEST_ORIGIN, "content-type": "application/json" };
    for (const username of ["o.other", "v.tаrget", "v.target%", "", "v.target\u0000", "x".repeat(201)]) {
      const answer = await erase(victim.id, JSON.stringify({ username }), headers);
      expect([400].includes(answer.statusCode), `${username}: ${answer.body}`).toBe(true);
    }
    for (const body of ["{}", "null", "[]", '{"username":5}', "{"]) {
      expect((await erase(victim.id, body, headers)).statusCode).toBe(400);
    }
    expect(await stillThere()).toBe(true);
    const both = await Promise.all([
      erase(other.id, JSON.stringify({ username: "o.other" }), headers),
      erase(other.id, JSON.stringify({ username: "o.other" }), headers),
    ]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const rows = await t.app.db
      .selectFrom("audit_events")
      .select("id")
      .where("event_type", "=", "person_erased")
      .where("user_id", "=", other.id)
      .orderBy("audit_events.id")
      .execute();
    expect(rows).toHaveLength(1);
  });
});
