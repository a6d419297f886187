import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

/** `kpi-id app cas`: an operator registers an application's CAS services (docs/cas.md). */
describe.each(aboveModelDatabases)("kpi-id app cas on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  const cli = (args: string[]): Promise<CliRun> => runCliOn(database.handle, args);
  const create = (name: string) =>
    cli(["app", "create", "--name", name, "--title", name, "--callback-url", `https://${name}.kpi.ua/cb`]);

  it("adds an exact service and a prefix with their settings, lists them, and removes one", async () => {
    await create("moodle");
    const exact = await cli(["app", "cas", "--app", "moodle", "--service", "https://moodle.kpi.ua/login/index.php"]);
    expect(exact.code).toBe(0);
    expect(exact.stdout).toContain("CAS server URL http://localhost:3000/cas");
    const prefix = await cli([
      "app",
      "cas",
      "--app",
      "moodle",
      "--service",
      "https://moodle.kpi.ua/course/",
      "--prefix",
      "--attributes",
      "uid,displayName,affiliation",
      "--single-logout",
      "--proxy",
      "--json",
    ]);
    expect(prefix.code).toBe(0);
    expect(prefix.json<{ casServices: unknown[] }>().casServices).toEqual([
      expect.objectContaining({
        url: "https://moodle.kpi.ua/course/",
        match: "prefix",
        singleLogout: true,
        proxy: true,
        attributes: ["uid", "displayName", "affiliation"],
      }),
      expect.objectContaining({ url: "https://moodle.kpi.ua/login/index.php", match: "exact", singleLogout: false }),
    ]);
    const removed = await cli(["app", "cas", "--app", "moodle", "--remove", "https://moodle.kpi.ua/course/", "--json"]);
    expect(removed.json<{ casServices: unknown[] }>().casServices).toHaveLength(1);
    const listed = await cli(["app", "cas", "--app", "moodle"]);
    expect(listed.stdout).toContain("exact  https://moodle.kpi.ua/login/index.php");
  });

  it("refuses open patterns, plain http off this computer, unknown attributes and another application's addresses", async () => {
    await create("wiki");
    await create("blog");
    for (const [service, words] of [
      ["https://*.kpi.ua/", "wildcard"],
      ["http://wiki.kpi.ua/", "scheme"],
      ["https://wiki.kpi.ua/app", "prefix_not_a_path"],
      ["https://user@wiki.kpi.ua/", "userinfo"],
      ["https://WIKI.kpi.ua/", "not_canonical"],
      // A prefix a web server could read as another path covers nothing it seems to (issue 73).
      ["https://wiki.kpi.ua/app..%2F/", "prefix_ambiguous_path"],
      ["https://wiki.kpi.ua/app;v=1/", "prefix_ambiguous_path"],
    ] as const) {
      const refused = await cli(["app", "cas", "--app", "wiki", "--service", service, "--prefix"]);
      expect(refused.code, service).not.toBe(0);
      expect(refused.stderr, service).toContain(words);
    }
    const attributes = await cli([
      "app",
      "cas",
      "--app",
      "wiki",
      "--service",
      "https://wiki.kpi.ua/",
      "--attributes",
      "uid,password",
    ]);
    expect(attributes.stderr).toContain("unknown password");
    expect((await cli(["app", "cas", "--app", "wiki", "--service", "https://wiki.kpi.ua/", "--prefix"])).code).toBe(0);
    const inside = await cli(["app", "cas", "--app", "blog", "--service", "https://wiki.kpi.ua/blog/"]);
    expect(inside.code).not.toBe(0);
    expect(inside.stderr).toContain("overlaps a CAS service");
    expect((await cli(["app", "cas", "--app", "blog", "--service", "http://127.0.0.1:8080/blog/"])).code).toBe(0);
  });

  it("--rename releases an attribute under the name the plugin expects, listed beside it; a name a client could not read is refused", async () => {
    await create("gitlab");
    const service = "https://gitlab.kpi.ua/users/auth/cas3/callback?url=https%3A%2F%2Fgitlab.kpi.ua%2F";
    const register = (...extra: string[]) =>
      cli(["app", "cas", "--app", "gitlab", "--service", service, "--attributes", "uid,mail,displayName", ...extra]);
    const saved = await register("--rename", "mail=email", "--rename", "uid=username");
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain("attributes: uid=username, mail=email, displayName");
    for (const [rename, words] of [
      ["mail=e-mail address", "bad_name"],
      ["uid=authenticationDate", "reserved"],
      ["sn=surname", "not_released"],
      ["mail=displayName", "collision"],
      ["password=secret", "unknown password"],
      ["mail", "ATTRIBUTE=NAME"],
    ] as const) {
      const refused = await register("--rename", rename);
      expect(refused.code, rename).toBe(2);
      expect(refused.stderr, rename).toContain(words);
    }
    const listed = await cli(["app", "cas", "--app", "gitlab", "--json"]);
    expect(listed.json<{ casServices: { renames: unknown }[] }>().casServices[0]?.renames).toEqual({
      mail: "email",
      uid: "username",
    });
  });
});
