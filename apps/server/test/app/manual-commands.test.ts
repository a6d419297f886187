import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliOn } from "../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { manual } from "../support/manual-samples.ts";

/** Every `npx kpi-id …` command of the manual, a code block's continued lines joined, in the order shown. */
function commands(lang: "uk" | "en"): string[] {
  const text = manual(lang).replace(/\\\n\s*/g, "");
  return [...text.matchAll(/npx kpi-id ([^`\n]+)/g)].map((match) => (match[1] ?? "").trim());
}

/** Splits a command line as a shell does for these: words, and "quoted words" kept whole. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

/**
 * Issue 19: the operator commands the manual gives integrators (registration with two callbacks, access,
 * a new secret, the tax id, OpenID Connect, MFA) run as printed, in the manual's order, and do what it says.
 */
describe("the integration manual's operator commands", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());

  const cli = (args: string[]) => runCliOn(database.handle, args, { env: { PUBLIC_URL: "https://id.kpi.example" } });

  it("are the same commands in the Ukrainian and the English manual", () => {
    expect(commands("uk")).toEqual(commands("en"));
    expect(commands("en").length).toBeGreaterThanOrEqual(6);
  });

  it("run as printed against a fresh KPI ID and register the application the manual describes", async () => {
    const person = await cli(["user", "create", "--username", "o.petrenko", "--full-name", "Олег Петренко"]);
    expect(person.code, person.stderr).toBe(0);
    let appId = "";
    for (const line of commands("en")) {
      // "…" marks a command shown in part (section 12 points back at section 1's); it is not meant to run.
      if (line.includes("…")) continue;
      // The placeholder the manual uses for "your application's id".
      const args = words(line).map((word) => (word === "ID" ? appId : word));
      const run = await cli(args);
      expect(run.code, `npx kpi-id ${line}\n${run.stderr}`).toBe(0);
      if (args[0] === "app" && args[1] === "create") {
        const app = await database.handle.db
          .selectFrom("applications")
          .select("id")
          .where("name", "=", "timetable")
          .executeTakeFirstOrThrow();
        appId = app.id;
        // The id goes in the button and the secret is shown once.
        expect(run.stdout).toContain(appId);
      }
    }
    const app = await database.handle.db
      .selectFrom("applications")
      .selectAll()
      .where("name", "=", "timetable")
      .executeTakeFirstOrThrow();
    expect({
      title: app.title,
      callback: app.callback_url,
      extra: app.extra_callback_urls,
      taxId: app.release_tax_id,
      oidc: app.oidc_enabled,
      redirectUris: app.redirect_uris,
      mfa: app.require_mfa,
    }).toEqual({
      title: "Розклад",
      callback: "https://timetable.kpi.ua/kpi-id/callback",
      extra: ["http://localhost:8080/kpi-id/callback"],
      taxId: true,
      oidc: true,
      redirectUris: ["https://timetable.kpi.ua/oidc/callback"],
      mfa: true,
    });
    const access = await database.handle.db
      .selectFrom("user_applications")
      .select("application_id")
      .where("application_id", "=", appId)
      .execute();
    expect(access).toHaveLength(1);
  });
});
