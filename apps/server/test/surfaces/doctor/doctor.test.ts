import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSigningKey } from "../../../src/model/oidc/keys.ts";
import { ensureSamlKey } from "../../../src/protocols/saml/keys.ts";
import { runCli } from "../../../src/surfaces/cli/main.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

interface DoctorReport {
  version: string;
  checks: { check: string; status: "ok" | "warn" | "fail"; message: string; fix?: string }[];
}

const secret = "cli-test-session-secret-0123456789-abcdefghijkl";
const statusOf = (report: DoctorReport, check: string) =>
  report.checks.filter((each) => each.check === check).map((each) => each.status);

describe("kpi-id doctor without a working configuration", () => {
  it("names the setting that stops the configuration loading, and exits 1", async () => {
    const out: string[] = [];
    const code = await runCli(["doctor"], { env: { NODE_ENV: "production" }, stdout: (line) => out.push(line) });
    expect(code).toBe(1);
    expect(out.join("\n")).toMatch(/^FAIL\s+configuration\s+PUBLIC_URL: is required in production/);
  });

  it("reports an embedded database that is not there instead of making one", async () => {
    const out: string[] = [];
    const env = { NODE_ENV: "test", SESSION_SECRET: secret, DATA_DIR: "/tmp/kpi-id-doctor-no-such-dir" };
    const code = await runCli(["doctor", "--json"], { env, stdout: (line) => out.push(line) });
    expect(code).toBe(1);
    const report = JSON.parse(out.join("\n")) as DoctorReport;
    expect(report.checks.find((each) => each.check === "database")?.message).toBe(
      "no embedded database at /tmp/kpi-id-doctor-no-such-dir/pglite",
    );
  });
});

describe("kpi-id doctor on /metrics", () => {
  const production = {
    NODE_ENV: "production",
    PUBLIC_URL: "https://id.kpi.ua",
    SESSION_SECRET: "doctor-production-session-secret-7Hq2Lm9Xz4Rw8Kp",
    DATA_DIR: "/tmp/kpi-id-doctor-no-such-dir",
  };
  const metricsLine = async (env: Record<string, string>) => {
    const out: string[] = [];
    await runCli(["doctor"], { env, stdout: (line) => out.push(line) });
    return out
      .join("\n")
      .split("\n")
      .find((line) => /^\S+\s+metrics\s/.test(line));
  };

  it("says /metrics is off in production without METRICS_TOKEN or METRICS_PORT, and how to turn it on", async () => {
    expect(await metricsLine(production)).toMatch(/^WARN\s+metrics\s+\/metrics is off: production needs METRICS_TOKEN/);
    const token = { METRICS_TOKEN: "doctor-metrics-token-4Fh8Jk2Lq9Wz7Xc" };
    expect(await metricsLine({ ...production, ...token })).toMatch(
      /^OK\s+metrics\s+\/metrics needs a bearer token \(METRICS_TOKEN\)$/,
    );
    expect(await metricsLine({ ...production, METRICS_PORT: "9464" })).toMatch(
      /^OK\s+metrics\s+\/metrics needs port 9464 on 127.0.0.1 only \(METRICS_PORT\)$/,
    );
  });
});

describe.each(aboveModelDatabases)("kpi-id doctor on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await ensureSigningKey(database.handle.db, secret);
    await ensureSamlKey(database.handle.db, secret, "id.kpi.ua");
  });
  afterAll(() => database.dispose());

  const doctor = async (env: Record<string, string> = {}, now?: Date) => {
    const run = await runCliOn(database.handle, ["doctor", "--json"], { env, now });
    return { code: run.code, report: run.json<DoctorReport>() };
  };

  it("on a sound database warns only that it is not production, and says the version", async () => {
    const { code, report } = await doctor();
    expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.checks.filter((each) => each.status !== "ok")).toEqual([
      expect.objectContaining({ check: "production", status: "warn" }),
    ]);
    for (const check of ["configuration", "database", "migrations", "keys", "certificates", "clock"]) {
      expect(statusOf(report, check)).toEqual(["ok"]);
    }
    expect(code).toBe(3);
  });

  it("fails the keys check when no key of SESSION_SECRET opens them, and warns while an older one does", async () => {
    const other = "another-session-secret-0123456789-abcdefghijk";
    const foreign = await doctor({ SESSION_SECRET: other });
    expect(foreign.code).toBe(1);
    expect(foreign.report.checks.find((each) => each.check === "keys")).toMatchObject({
      status: "fail",
      message:
        "no key of SESSION_SECRET opens 0 authenticator-app secrets, 1 OpenID Connect and 1 SAML keys, 0 Wi-Fi network passwords",
    });
    const rotated = await doctor({ SESSION_SECRET: `${other},${secret}`, SAML_PAIRWISE_SALT: "pinned-salt" });
    expect(rotated.report.checks.find((each) => each.check === "keys")).toMatchObject({
      status: "warn",
      fix: "npx kpi-id secrets reseal, before removing the older key",
    });
  });

  it("warns of a certificate within 30 days of its end and fails an expired one", async () => {
    const signing = await database.handle.db.selectFrom("saml_signing_keys").select("kid").executeTakeFirstOrThrow();
    // The SAML key's certificate is good for ten years from today.
    const inTenYears = new Date();
    inTenYears.setUTCFullYear(inTenYears.getUTCFullYear() + 10);
    const soon = await doctor({}, new Date(inTenYears.getTime() - 10 * 86_400_000));
    expect(soon.report.checks.find((each) => each.check === "certificates")).toMatchObject({
      status: "warn",
      message: expect.stringContaining(`SAML signing key ${signing.kid}`),
    });
    const late = await doctor({}, new Date(inTenYears.getTime() + 86_400_000));
    expect(late.code).toBe(1);
    expect(statusOf(late.report, "certificates")).toEqual(["fail"]);
  });

  it("stops at pending migrations and never applies them", async () => {
    const fresh = await createTestDatabase(kind, { migrated: false });
    try {
      const run = await runCliOn(fresh.handle, ["doctor", "--json"]);
      expect(run.code).toBe(1);
      expect(run.json<DoctorReport>().checks.at(-1)).toMatchObject({ check: "migrations", status: "fail" });
      const again = await runCliOn(fresh.handle, ["doctor", "--json"]);
      expect(again.json<DoctorReport>().checks.at(-1)).toMatchObject({ check: "migrations", status: "fail" });
    } finally {
      await fresh.dispose();
    }
  });
});
