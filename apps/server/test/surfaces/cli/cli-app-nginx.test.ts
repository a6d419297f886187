import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

/** `kpi-id app nginx`: the operator's switch that makes an application a site behind nginx (docs/nginx-auth-request.md). */
describe.each(aboveModelDatabases)("kpi-id app nginx on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  const cli = (args: string[]): Promise<CliRun> => runCliOn(database.handle, args);
  const settingOf = async (name: string) =>
    (
      await database.handle.db
        .selectFrom("applications")
        .select("forward_auth_headers")
        .where("name", "=", name)
        .executeTakeFirstOrThrow()
    ).forward_auth_headers;

  it("turns an application into a site behind nginx with the headers named, and back", async () => {
    const callback = "https://wiki.kpi.ua/_kpi-id/callback";
    const created = await cli(["app", "create", "--name", "wiki", "--title", "Вікі", "--callback-url", callback]);
    expect(created.code).toBe(0);
    expect(await settingOf("wiki")).toBeNull();

    const some = await cli(["app", "nginx", "--app", "wiki", "--headers", "user-id, name", "--json"]);
    expect(some.code).toBe(0);
    expect(some.json()).toMatchObject({ name: "wiki", nginxHeaders: ["user-id", "name"] });
    expect(await settingOf("wiki")).toEqual(["user-id", "name"]);

    const all = await cli(["app", "nginx", "--app", "wiki"]);
    expect(all.stdout).toContain("user-id, username, name, email, affiliations");
    expect(await settingOf("wiki")).toEqual(["user-id", "username", "name", "email", "affiliations"]);

    const off = await cli(["app", "nginx", "--app", "wiki", "--off"]);
    expect(off.code).toBe(0);
    expect(await settingOf("wiki")).toBeNull();
  });

  it("refuses an unknown header or application, saying which", async () => {
    await cli(["app", "create", "--name", "lab", "--title", "Лабораторія", "--callback-url", "https://lab.kpi.ua/cb"]);
    const unknown = await cli(["app", "nginx", "--app", "lab", "--headers", "name,tax-id"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("unknown tax-id");
    expect(await settingOf("lab")).toBeNull();
    const missing = await cli(["app", "nginx", "--app", "no-such-app"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("no application 'no-such-app'");
  });

  it("refuses an application without a callback URL: there is no host to protect", async () => {
    await cli([
      "app",
      "create",
      "--name",
      "blank",
      "--title",
      "Без адреси",
      "--callback-url",
      "https://blank.kpi.ua/cb",
    ]);
    await database.handle.db
      .updateTable("applications")
      .set({ callback_url: "" })
      .where("name", "=", "blank")
      .execute();
    const refused = await cli(["app", "nginx", "--app", "blank"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("blank has no callback URL");
    expect(await settingOf("blank")).toBeNull();
  });
});
