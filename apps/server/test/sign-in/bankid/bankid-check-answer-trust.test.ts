import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCertificateAuthority } from "../../../../../sandbox/src/diia/pki.ts";
import { makeKeyPair } from "../../protocols/saml/keys.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabase, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

// `kpi-id bankid check-answer --trust` takes the qualified CAs' list in every form the server takes
// BANKID_TRUST_ANCHORS in: here IIT's `CACertificates.p7b` as published (DER), made by OpenSSL (not by the
// product's reader) from the Bouncy Castle vector's CA, another DSTU 4145 CA and an RSA CA that is left out.

const baseEnv = {
  NODE_ENV: "test",
  SESSION_SECRET: "cli-test-session-secret-0123456789-abcdefghijkl",
  DATA_DIR: "/tmp/kpi-id-cli-test",
};
const vector = (folder: string, name: string) =>
  new URL(`../../vectors/bankid/${folder}/${name}`, import.meta.url).pathname;

describe("kpi-id bankid check-answer --trust, as the CAs publish their list", () => {
  let database: TestDatabase;
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-check-answer-trust-"));
  const p7b = join(dir, "CACertificates.p7b");
  const othersP7b = join(dir, "others.p7b");

  beforeAll(async () => {
    database = await createTestDatabase(aboveModelDatabase);
    const others = join(dir, "others.pem");
    const rsa = makeKeyPair("rsa-qualified-ca").certificatePem;
    writeFileSync(others, `${createCertificateAuthority("Another qualified CA").certificate.as_pem()}\n${rsa}`);
    const p7bOf = (out: string, ...files: string[]) =>
      execFileSync("openssl", [
        "crl2pkcs7",
        "-nocrl",
        ...files.flatMap((file) => ["-certfile", file]),
        "-outform",
        "DER",
        "-out",
        out,
      ]);
    p7bOf(p7b, others, vector("curve-431", "ca.pem"));
    p7bOf(othersP7b, others);
    writeFileSync(join(dir, "garbage.p7b"), Buffer.from([0x30, 0x03, 0x02, 0x01]));
  }, 180_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const checkAnswer = (...trust: string[]) =>
    runCliOn(
      database.handle,
      [
        "bankid",
        "check-answer",
        vector("curve-431", "envelope.b64"),
        "--key",
        vector("curve-431", "recipient-key.pem"),
        "--certificate",
        vector("curve-431", "recipient.pem"),
        ...trust.flatMap((file) => ["--trust", file]),
      ],
      { env: baseEnv },
    );

  it("opens an answer whose bank chains to a CA in a DER CACertificates.p7b", async () => {
    const run = await checkAnswer(p7b);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("chains to a configured CA");
    expect(run.stdout).toContain("The answer opened.");
  });

  it("reads every --trust file on its own: a .p7b without the bank's CA beside a PEM with it", async () => {
    const run = await checkAnswer(othersP7b, vector("curve-431", "ca.pem"));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("The answer opened.");
    const without = await checkAnswer(othersP7b);
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("The answer did not open: untrusted_certificate.");
  });

  it("names the --trust file it cannot read", async () => {
    const run = await checkAnswer(join(dir, "garbage.p7b"));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `--trust ${join(dir, "garbage.p7b")}: is neither PEM certificates, a PKCS#7 certificate list nor a DER certificate`,
    );
  });
});
