import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../../sandbox/src/bankid/index.ts";
import { createCertificateAuthority, issuePersonCertificate } from "../../../../../sandbox/src/diia/pki.ts";
import { certificateSources } from "../../../src/surfaces/doctor/certificates.ts";
import { makeKeyPair } from "../../protocols/saml/keys.ts";
import { testConfig } from "../../support/app.ts";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";

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

  it("reads the trust list as published: CACertificates.p7b (OpenSSL-made, with a non-DSTU CA) and a PEM bundle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kpi-id-cas-"));
    const other = createCertificateAuthority("Another qualified CA");
    const rsa = makeKeyPair("rsa-ca");
    const bundle = join(dir, "bundle.pem");
    writeFileSync(
      bundle,
      `${standIn.pki.ca.certificate.as_pem()}\n${other.certificate.as_pem()}\n${rsa.certificatePem}`,
    );
    const p7b = join(dir, "CACertificates.p7b");
    execFileSync("openssl", ["crl2pkcs7", "-nocrl", "-certfile", bundle, "-outform", "DER", "-out", p7b]);
    const fromP7b = await cli(["bankid", "status"], { ...standIn.env, BANKID_TRUST_ANCHORS: p7b });
    expect(fromP7b.code).toBe(0);
    expect(fromP7b.stdout).toContain("2 CA(s) from PKCS#7 (1 not DSTU 4145, left out): BankID sandbox qualified CA");
    expect(fromP7b.stdout).toContain("Another qualified CA (until");
    const fromPem = await cli(["bankid", "status", "--json"], { ...standIn.env, BANKID_TRUST_ANCHORS: bundle });
    expect(fromPem.json()).toMatchObject({
      ready: true,
      trustAnchors: expect.stringMatching(/^2 CA\(s\) from PEM \(1 not/),
    });
    writeFileSync(join(dir, "garbage.p7b"), Buffer.from([0x30, 0x03, 0x02, 0x01]));
    const garbage = await cli(["bankid", "status", "--json"], {
      ...standIn.env,
      BANKID_TRUST_ANCHORS: join(dir, "garbage.p7b"),
    });
    expect(garbage.code).toBe(1);
    expect(garbage.json()).toMatchObject({ keys: expect.stringMatching(/^BANKID_TRUST_ANCHORS: /) });
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

describe("kpi-id bankid check-answer on the committed Bouncy Castle vectors", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  }, 180_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const vector = (folder: string, name: string) =>
    new URL(`../../vectors/bankid/${folder}/${name}`, import.meta.url).pathname;
  const files = (folder: string) => [
    "--key",
    vector(folder, "recipient-key.pem"),
    "--certificate",
    vector(folder, "recipient.pem"),
    "--trust",
    vector(folder, "ca.pem"),
  ];
  const cli = (args: string[]) => runCliOn(database.handle, args, { env: baseEnv });

  it("opens a bare customerCrypto, printing each step and nothing of the person's data", async () => {
    const run = await cli(["bankid", "check-answer", vector("curve-431", "envelope.b64"), ...files("curve-431")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("dynamic agreement (ephemeral key), ukm absent");
    expect(run.stdout).toContain("on the 431-bit curve");
    expect(run.stdout).toContain("a tax id with a valid check digit, 1 identity document(s)");
    expect(run.stdout).toContain("The answer opened.");
    expect(run.stdout).not.toContain("3012345670");
    expect(run.stdout).not.toContain("КОВАЛЕНКО");
  });

  it("opens a whole answer under static agreement, and says where one fails (exit status 1)", async () => {
    const folder = "static-issuer-serial";
    const certificate = readFileSync(vector(folder, "originator.pem"), "utf8")
      .replace(/-----[^-]+-----/g, "")
      .replace(/\s+/g, "");
    const answer = {
      state: "ok",
      cert: certificate,
      customerCrypto: readFileSync(vector(folder, "envelope.b64"), "utf8").replace(/\s+/g, ""),
      memberId: "00032129",
      sidBi: "captured",
    };
    const path = join(mkdtempSync(join(tmpdir(), "kpi-id-answer-")), "answer.json");
    writeFileSync(path, JSON.stringify(answer));
    const opened = await cli(["bankid", "check-answer", path, ...files(folder), "--json"]);
    expect(opened.code).toBe(0);
    expect(opened.json()).toMatchObject({ opened: true });
    const otherBank = await cli(["bankid", "check-answer", path, ...files(folder), "--member-id", "14360570"]);
    expect(otherBank.code).toBe(1);
    expect(otherBank.stdout).toContain("originator_not_the_bank");
    expect(otherBank.stdout).toContain("The answer did not open: originator_not_the_bank.");
    const wrongKey = await cli([
      "bankid",
      "check-answer",
      path,
      ...files(folder).slice(0, 2),
      "--certificate",
      vector("curve-431", "recipient.pem"),
      "--trust",
      vector(folder, "ca.pem"),
    ]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr + wrongKey.stdout).toContain("BANKID_KEY: holds no key");
  });

  it("refuses to run without keys when BankID is not configured", async () => {
    const run = await cli(["bankid", "check-answer", vector(".", "envelope.b64")]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--key, --certificate and --trust");
  });
});
