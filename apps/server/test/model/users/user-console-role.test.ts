import type { CurrentUser } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";

// Issue 37: a person with a console role sees a link to it; the page learns so from GET /user.
describe.each(databaseKinds)("GET /user and console roles on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  const user = async (cookie: string) => {
    const response = await t.app.inject({ url: "/user", headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CurrentUser>();
  };

  it("says console for a helpdesk operator and an admin, and nothing for a person without a role", async () => {
    expect((await user((await addOperator(t.app, ["helpdesk"], "PASSWORD")).cookie)).console).toBe(true);
    expect((await user((await addOperator(t.app, ["admin"])).cookie)).console).toBe(true);
    const student = await user((await addOperator(t.app, [], "PASSWORD")).cookie);
    expect(student).not.toHaveProperty("console");
  });
});
