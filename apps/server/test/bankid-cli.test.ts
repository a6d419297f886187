import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../sandbox/src/bankid/index.ts";
import { createCertificateAuthority, issuePersonCertificate } from "../../../sandbox/src/diia/pki.ts";
import { certificateSources } from "../src/surfaces/doctor/certificates.ts";
import { testConfig } from "./support/app.ts";
import { runCliOn } from "./support/cli.ts";
import { createTestDatabase, type TestDatabase } from "./support/databases.ts";

const baseEnv = {
  NODE_ENV: "test",
  SESSION_SECRET: "cli-test-session-secret-0123456789-abcdefghijkl",
  DATA_DIR: "/tmp/kpi-id-cli-test",
};

describe("kpi-id bankid status, and the BankID certificates the doctor watches", () => {
  let database: TestDatabase;
  let standIn: RunningBankIdStandIn;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    standIn = await startBankIdStandIn({ productUrl: "http://localhost:3000", port: 0 });
    // Keys are made in JavaScript and the database migrated: slow on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await standIn?.close();
    await database?.dispose();
  });

  const cli = (args: string[], env: Record<string, string | undefined>) =>
    runCliOn(database.handle, args, { env: { ...baseEnv, ...env } });

  it("reports ready with the sandbox's configuration, without printing the key or the secret", async () => {
    const run = await cli(["bankid", "status"], standIn.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("keyAgreement only, key matches");
    expect(run.stdout).toContain("reachable: 3 of 4 banks workable");
    expect(run.stdout).toContain("Sign-in with BankID NBU is ready.");
    expect(run.stdout).not.toContain(standIn.clientSecret);
    expect(run.stdout).not.toContain("PRIVATE KEY");
  });

  it("names a signing certificate (not keyAgreement), a key of another certificate and an unreachable node", async () => {
    const ca = createCertificateAuthority("Another CA");
    const signing = issuePersonCertificate(ca, {
      taxId: "3012345670",
      surname: "Test",
      givenName: "Signer",
      patronymic: "",
    });
    const wrongCertificate = await cli(["bankid", "status", "--json"], {
      ...standIn.env,
      BANKID_CERTIFICATE: signing.certificate.as_pem(),
    });
    expect(wrongCertificate.code).toBe(1);
    expect(JSON.parse(wrongCertificate.stdout)).toMatchObject({
      ready: false,
      keys: expect.stringMatching(/^BANKID_KEY: holds no key/),
    });
    const unreachable = await cli(["bankid", "status"], { ...standIn.env, BANKID_BASE_URL: "http://127.0.0.1:9" });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toContain("Not ready: node.");
  });

  it("fails clearly when BankID is not configured", async () => {
    const run = await cli(["bankid", "status"], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("BANKID_BASE_URL");
  });

  it("lists our certificate and the qualified CA with their expiry for doctor and the metric", async () => {
    const config = testConfig(standIn.env);
    const read = certificateSources["BankID encryption certificate and qualified CAs"];
    const watched = await read?.({ config, db: database.handle.db });
    expect(watched?.map((each) => each.source)).toEqual([
      "BANKID_CERTIFICATE (registered with NBU)",
      "BANKID_TRUST_ANCHORS certificate 1",
    ]);
    expect(watched?.[0]?.notAfter.getTime()).toBe(standIn.pki.organisation.certificate.valid.to);
  });
});
