import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { diiaVectorShapes } from "../../vectors/diia/shapes.ts";

// `kpi-id diia check-callback` on the committed Bouncy Castle vectors (test/vectors/diia), in each form a
// captured callback may take: the encodeData part's base64, its JSON, the whole multipart body.
describe("kpi-id diia check-callback", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  }, 180_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const vector = (folder: string, name: string) =>
    new URL(`../../vectors/diia/${folder}/${name}`, import.meta.url).pathname;
  const at = ["--at", "2030-01-01T00:00:00Z"];
  const trust = (folder: string) => [
    "--trust",
    vector(folder, "ca.pem"),
    ...(diiaVectorShapes[folder]?.signer === "absent" ? ["--certificate", vector(folder, "signer.pem")] : []),
  ];
  const cli = (args: string[]) => runCliOn(database.handle, args, {});

  for (const folder of Object.keys(diiaVectorShapes)) {
    it(`opens the ${folder} vector's encodeData and prints each step, not the person`, async () => {
      const run = await cli(["diia", "check-callback", vector(folder, "encodeData.b64"), ...trust(folder), ...at]);
      expect(run.code).toBe(0);
      for (const step of ["parse", "signer's certificate", "chain to a trusted CA", "revocation", "RNOKPP and name"])
        expect(run.stdout).toContain(step);
      expect(run.stdout).toContain("The callback opened: a tax number and a name were read.");
      expect(run.stdout).not.toContain("3012345670");
      expect(run.stdout).not.toContain("КОВАЛЕНКО");
    });
  }

  it("reads a whole multipart body and the JSON, and checks the digest against --request-id", async () => {
    const folder = "cades-x-long";
    const encodeData = readFileSync(vector(folder, "encodeData.b64"), "utf8").trim();
    const dir = mkdtempSync(join(tmpdir(), "kpi-id-callback-"));
    const multipart = join(dir, "callback.txt");
    writeFileSync(
      multipart,
      `--diia\r\nContent-Disposition: form-data; name="encodeData"\r\n\r\n${encodeData}\r\n--diia--\r\n`,
    );
    const requestId = readFileSync(vector(folder, "request-id.txt"), "utf8").trim();
    const opened = await cli([
      "diia",
      "check-callback",
      multipart,
      ...trust(folder),
      ...at,
      "--request-id",
      requestId,
      "--json",
    ]);
    expect(opened.code).toBe(0);
    expect(opened.json()).toMatchObject({ opened: true });
    expect(opened.stdout).toContain("signature-time-stamp");
    const json = join(dir, "encodeData.json");
    writeFileSync(json, Buffer.from(encodeData, "base64").toString("utf8"));
    const otherRequest = await cli([
      "diia",
      "check-callback",
      json,
      ...trust(folder),
      ...at,
      "--request-id",
      "another",
    ]);
    expect(otherRequest.code).toBe(1);
    expect(otherRequest.stdout).toContain("The callback did not open: digest_mismatch.");
  });

  it("says where one fails: an absent signer's certificate not given, a CA not trusted (exit status 1)", async () => {
    const absent = await cli([
      "diia",
      "check-callback",
      vector("signer-absent", "encodeData.b64"),
      "--trust",
      vector("signer-absent", "ca.pem"),
      ...at,
    ]);
    expect(absent.code).toBe(1);
    expect(absent.stdout).toContain("signer_certificate_not_found");
    expect(absent.stdout).toContain("The callback did not open: signer_certificate_absent.");
    const untrusted = await cli([
      "diia",
      "check-callback",
      vector("signer-first", "encodeData.b64"),
      "--trust",
      new URL("../../vectors/bankid/ca.pem", import.meta.url).pathname,
      ...at,
    ]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain("The callback did not open: untrusted_certificate.");
  });

  it("refuses to run without CAs when Diia is not configured", async () => {
    const run = await cli(["diia", "check-callback", vector("signer-first", "encodeData.b64")]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--trust");
  });
});
