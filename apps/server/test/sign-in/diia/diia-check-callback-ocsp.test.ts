import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDiiaStandIn, startDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { signRequestHash } from "../../../../../sandbox/src/diia/pki.ts";
import { hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";

// `kpi-id diia check-callback --ocsp URL`: the command is no callback, so it asks the responder itself (the
// stand-in's, over http) before the step it prints as "revocation".
describe("kpi-id diia check-callback with an OCSP responder", () => {
  let database: TestDatabase;
  let diia: RunningDiiaStandIn;
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-callback-ocsp-"));
  const requestId = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    diia = await startDiiaStandIn({ productUrl: "http://127.0.0.1:1", port: 0 });
    writeFileSync(join(dir, "ca.pem"), diia.trustAnchorPem);
  }, 180_000);
  afterAll(async () => {
    await diia?.close();
    await database?.dispose();
  });

  async function check(personaId: string) {
    const persona = diia.people.find((person) => person.id === personaId);
    if (!persona) throw new Error(`no persona ${personaId}`);
    const signature = signRequestHash(persona.party, hashRequestId(requestId)).toString("base64");
    const file = join(dir, `${personaId}.json`);
    writeFileSync(file, JSON.stringify({ requestId: hashRequestId(requestId), signature }));
    const args = ["--trust", join(dir, "ca.pem"), "--ocsp", diia.env.DIIA_OCSP ?? "", "--request-id", requestId];
    return runCliOn(database.handle, ["diia", "check-callback", file, ...args], {});
  }

  it("opens a good signer's callback once the responder answered good", async () => {
    const run = await check("student");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("The callback opened");
  });

  it("refuses the callback of a signer only the responder says is revoked", async () => {
    const run = await check("revoked-ocsp");
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("certificate_revoked");
  });
});
