import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const env = {
  NODE_ENV: "test",
  SESSION_SECRET: "audit-cli-test-session-secret-0123456789-abcdef",
  DATA_DIR: "/tmp/kpi-id-audit-cli-test",
};

interface AuditRow {
  event: string;
  result: string;
  method: string | null;
  user: string | null;
  reason: string | null;
  ip: string | null;
  userAgent: string | null;
}

describe.each(aboveModelDatabases)("kpi-id audit list on %s", (kind) => {
  let t: TestApp;
  const password = "audited passphrase";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    await addPerson(t.app, { username: "audited", fullName: "Аудитор", taxId: "1234567890" }, password);
    await addPerson(t.app, { username: "bystander", fullName: "Сторонній" }, password);
    const headers = { "user-agent": "AuditTest/1.0" };
    const cookie = await signIn(t.app, "audited", password, headers);
    await postJson(t.app, "/api/auth", { username: "audited", password: "wrong one" }, { headers });
    await postJson(t.app, "/api/auth", { username: "nobody", password: "wrong one" }, { headers });
    await postJson(t.app, "/api/auth/logout", undefined, { headers: { ...headers, cookie } });
    await signIn(t.app, "bystander", password);
  });
  afterAll(() => t.close());

  const cli = (args: string[]) => runCliOn(t.database.handle, args, { env });

  it("lists one person's sign-ins and logout, newest first, as JSON", async () => {
    const { code, stdout } = await cli(["audit", "list", "--user", "audited", "--json"]);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as AuditRow[];
    expect(rows.map((row) => `${row.event}:${row.result}:${row.reason ?? ""}`)).toEqual([
      "logout:success:",
      "sign_in:failure:auth.invalid_credentials",
      "session_start:success:",
      "sign_in:success:",
    ]);
    expect(rows.every((row) => row.user === "audited" && row.ip === "127.0.0.1")).toBe(true);
    expect(rows[0]?.userAgent).toBe("AuditTest/1.0");
    expect(rows[1]?.method).toBe("PASSWORD");
    expect(stdout).not.toContain(password);
    expect(stdout).not.toContain("1234567890");
  });

  it("prints a table for people, filters by type and time, and includes unknown-user attempts", async () => {
    const all = await cli(["audit", "list", "--type", "sign_in", "--since", "1h"]);
    expect(all.code).toBe(0);
    const lines = all.stdout.split("\n");
    expect(lines[0]).toMatch(/^time\s+event\s+result\s+method\s+user\s+app\s+reason\s+ip$/);
    expect(lines.filter((line) => line.includes("user.unknown"))).toHaveLength(1);
    expect(lines.slice(1).every((line) => / sign_in /.test(line))).toBe(true);
    expect(all.stdout).not.toContain("nobody");

    const future = await cli(["audit", "list", "--since", "2999-01-01", "--json"]);
    expect(JSON.parse(future.stdout)).toEqual([]);
  });

  it("refuses a bad --since, an unknown type and an unknown user", async () => {
    const badSince = await cli(["audit", "list", "--since", "yesterday"]);
    expect(badSince.code).toBe(2);
    expect(badSince.stderr).toContain("--since");
    expect((await cli(["audit", "list", "--type", "everything"])).code).toBe(2);
    const unknown = await cli(["audit", "list", "--user", "ghost"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no user 'ghost'");
  });
});
