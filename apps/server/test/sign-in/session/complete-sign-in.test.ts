import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateUser } from "../../../src/model/users/queries.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, sessionCookieFrom, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const password = "a long passphrase, no rules";

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the session cookie", () => {
  it("is set in one place only: completeSignIn", async () => {
    const root = join(import.meta.dirname, "../../../src");
    const setters: string[] = [];
    for (const file of await sourceFiles(root)) {
      const text = await readFile(file, "utf8");
      // Fastify's reply.setCookie or Koa's ctx.cookies.set (oidc-provider) with a value; null only deletes it.
      if (/(?:setCookie|cookies\.set)\(\s*sessionCookieName\([^)]*\),(?!\s*null\b)/.test(text)) {
        setters.push(file.slice(root.length + 1));
      }
    }
    expect(setters).toEqual(["sign-in/session/complete-sign-in.ts"]);
  });
});

describe.each(aboveModelDatabases)("finishing a sign-in (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  const whoIs = (cookie: string) => t.app.inject({ url: "/user", headers: { cookie } });

  it("gives a person disabled between the password check and the exchange no session", async () => {
    const person = await addPerson(t.app, { username: "leaving", fullName: "Той, хто йде" }, password);
    const auth = await postJson(t.app, "/api/auth", { username: "leaving", password });
    expect(auth.statusCode).toBe(200);
    // Only the status changes (as in a race with the console): the grant itself is still there.
    await updateUser(t.app.db, person.id, { status: "disabled" });

    const internal = await postJson(t.app, "/api/auth/internal", { sessionId: auth.json().sessionId });
    expect(internal.statusCode).toBe(401);
    expect(internal.json().code).toBe("auth.grant_invalid");
    expect(internal.cookies.find((c) => c.name.endsWith("kpi_id_session") && c.value)).toBeUndefined();
    const row = await t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "reason"])
      .where("user_id", "=", person.id)
      .where("event_type", "=", "session_start")
      .executeTakeFirst();
    expect(row).toEqual({ event_type: "session_start", result: "failure", reason: "user.disabled" });
  });

  it("replaces the session the browser already had, so an earlier cookie stops working", async () => {
    await addPerson(t.app, { username: "returning", fullName: "Та, що повертається" }, password);
    const first = await signIn(t.app, "returning", password);
    const auth = await postJson(t.app, "/api/auth", { username: "returning", password });
    const internal = await postJson(
      t.app,
      "/api/auth/internal",
      { sessionId: auth.json().sessionId },
      { headers: { cookie: first } },
    );
    const second = sessionCookieFrom(internal);
    expect(second).not.toBe(first);
    expect((await whoIs(first)).statusCode).toBe(401);
    expect((await whoIs(second)).json().fullName).toBe("Та, що повертається");
  });
});
