import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashTokenHex } from "../../../src/platform/crypto/tokens.ts";
import { type CliRun, cliTestEnv, runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("operator CLI on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  const cli = (args: string[], stdin = ""): Promise<CliRun> => runCliOn(database.handle, args, { stdin });

  it("creates an application and shows its secret once, storing only a hash", async () => {
    const created = await cli([
      "app",
      "create",
      "--name",
      "timetable",
      "--title",
      "Розклад",
      "--description",
      "Розклад занять",
      "--callback-url",
      "https://timetable.kpi.ua/kpi-id/callback",
      "--json",
    ]);
    expect(created.code).toBe(0);
    const { id, secret } = created.json<{ id: string; secret: string }>();
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const row = await database.handle.db
      .selectFrom("applications")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashTokenHex(secret));
    expect(row.secret_hash).not.toContain(secret);

    const listed = await cli(["app", "list", "--json"]);
    expect(listed.json<{ name: string }[]>().map((app) => app.name)).toContain("timetable");
    expect(listed.stdout).not.toContain(secret);

    const rotated = await cli(["app", "rotate-secret", "--app", "timetable", "--json"]);
    const after = await database.handle.db
      .selectFrom("applications")
      .select("secret_hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(after.secret_hash).toBe(hashTokenHex(rotated.json<{ secret: string }>().secret));
  });

  it("refuses an application whose callback could leak tickets", async () => {
    for (const url of ["http://timetable.kpi.ua/cb", "https://timetable.kpi.ua/cb#x", "javascript:alert(1)"]) {
      const result = await cli(["app", "create", "--name", "bad", "--title", "Bad", "--callback-url", url]);
      expect(result.code, url).toBe(2);
      expect(result.stderr).toContain("callbackUrl");
    }
  });

  it("creates a person with a password from stdin, grants and revokes access", async () => {
    const created = await cli(
      [
        "user",
        "create",
        "--username",
        "o.petrenko",
        "--full-name",
        "Олег Петренко",
        "--email",
        "o.petrenko@kpi.ua",
        "--student-id",
        "KV-1001",
        "--tax-id",
        "1234567890",
        "--password-stdin",
        "--json",
      ],
      "a long passphrase with spaces and ünïcödé",
    );
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ username: "o.petrenko", fullName: "Олег Петренко", hasTaxId: true });
    expect(created.stdout).not.toContain("1234567890");
    const row = await database.handle.db
      .selectFrom("users")
      .selectAll()
      .where("username", "=", "o.petrenko")
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    expect((await cli(["user", "grant", "--username", "o.petrenko", "--app", "timetable"])).code).toBe(0);
    const access = () =>
      database.handle.db
        .selectFrom("user_applications")
        .select("application_id")
        .where("user_id", "=", row.id)
        .execute();
    expect(await access()).toHaveLength(1);
    expect((await cli(["user", "revoke", "--username", "o.petrenko", "--app", "timetable"])).code).toBe(0);
    expect(await access()).toHaveLength(0);
    const audited = await database.handle.db
      .selectFrom("audit_events")
      .select(["event_type", "reason"])
      .where("user_id", "=", row.id)
      .where("event_type", "in", ["access_granted", "access_revoked"])
      .orderBy("id")
      .execute();
    expect(audited).toEqual([
      { event_type: "access_granted", reason: "cli" },
      { event_type: "access_revoked", reason: "cli" },
    ]);

    const unknownApp = await cli(["user", "grant", "--username", "o.petrenko", "--app", "no-such-app"]);
    expect(unknownApp.code).toBe(1);
    expect(unknownApp.stderr).toContain("no application 'no-such-app'");
  });

  it("refuses a duplicate username and a too short password", async () => {
    const duplicate = await cli(["user", "create", "--username", "O.Petrenko", "--full-name", "Someone Else"]);
    expect(duplicate.code).toBe(1);
    const short = await cli(
      ["user", "create", "--username", "short", "--full-name", "Short", "--password-stdin"],
      "1234567",
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("at least 8 characters");
  });

  it("disables a person and ends their sessions", async () => {
    const user = await database.handle.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "o.petrenko")
      .executeTakeFirstOrThrow();
    await database.handle.db
      .insertInto("sessions")
      .values({
        token_hash: Buffer.alloc(32, 7),
        user_id: user.id,
        auth_method: "PASSWORD",
        idle_expires_at: new Date(Date.now() + 60_000),
        absolute_expires_at: new Date(Date.now() + 60_000),
      })
      .execute();
    expect((await cli(["user", "disable", "--username", "o.petrenko"])).code).toBe(0);
    const sessions = await database.handle.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", user.id)
      .execute();
    expect(sessions).toHaveLength(0);
    const listed = await cli(["user", "list", "--json"]);
    expect(listed.json<{ username: string; status: string }[]>().find((u) => u.username === "o.petrenko")?.status).toBe(
      "disabled",
    );
  });

  it("exits with 2 and the usage for unknown flags and missing values", async () => {
    for (const args of [
      ["user", "create", "--username"],
      ["app", "create", "--nmae", "x"],
      ["user", "grant", "--username", "x"],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: kpi-id <command>");
    }
  });
});

describe("CLI usage errors", () => {
  const bin = fileURLToPath(new URL("../../../bin/kpi-id.js", import.meta.url));
  const run = (args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      encoding: "utf8",
      env: { ...process.env, ...cliTestEnv, DATA_DIR: "/tmp/kpi-id-cli-usage" },
    });

  it("exits with 2 and the usage for no command and unknown commands", () => {
    for (const args of [[], ["frobnicate"], ["user", "frobnicate"]]) {
      const result = run(args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stdout + result.stderr).toContain("Usage: kpi-id <command>");
    }
  });

  it("prints the usage with exit 0 when asked for help", () => {
    const result = run(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("user import --file people.csv");
  });
});
