import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { makeKeyPair } from "../../protocols/saml/keys.ts";
import { createTestApp } from "../../support/app.ts";
import { askForDeepLink, person, pollDiia, postSignedCallback, startTestDiia } from "../../support/diia.ts";

// The test environment's CA bundle comes as the CAs publish it, `CACertificates.Test.p7b`: a
// certificates-only PKCS#7 (here made by OpenSSL, not by our code), holding CAs that are not DSTU 4145 too.
describe("Diia trust anchors from a PKCS#7 bundle", () => {
  let diia: RunningDiiaStandIn;
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-diia-cas-"));

  beforeAll(async () => {
    diia = await startTestDiia();
    const bundle = join(dir, "bundle.pem");
    const anchorsPem = (diia.env.DIIA_TRUST_ANCHORS ?? "").replace(/\\n/g, "\n");
    writeFileSync(bundle, `${anchorsPem}\n${makeKeyPair("ecdsa-or-rsa-ca").certificatePem}`);
    for (const [name, form] of [
      ["CACertificates.Test.p7b", "DER"],
      ["CACertificates.Test.p7b.pem", "PEM"],
    ] as const) {
      execFileSync("openssl", ["crl2pkcs7", "-nocrl", "-certfile", bundle, "-outform", form, "-out", join(dir, name)]);
    }
    writeFileSync(join(dir, "garbage.p7b"), Buffer.from([0x30, 0x03, 0x02, 0x01]));
  });
  afterAll(async () => diia?.close());

  it.each(["CACertificates.Test.p7b", "CACertificates.Test.p7b.pem"])("signs a person in with %s", async (name) => {
    const test = await createTestApp("pglite", { ...diia.env, DIIA_TRUST_ANCHORS: join(dir, name) }, { protocols: [] });
    try {
      await insertUser(test.app.db, { username: "student", full_name: "Олена Коваленко", tax_id: "3012345670" });
      const link = await askForDeepLink(test.app);
      const callback = await postSignedCallback(test.app, link.requestId, person(diia, "student"));
      expect(callback.json()).toEqual({ success: true });
      const poll = await pollDiia(test.app, link.requestId, link.cookie);
      expect(poll.json()).toEqual({ status: "Finished", sessionId: expect.any(String) });
    } finally {
      await test.close();
    }
  });

  it("refuses to start with a bundle it cannot read, naming the setting", async () => {
    await expect(
      createTestApp("pglite", { ...diia.env, DIIA_TRUST_ANCHORS: join(dir, "garbage.p7b") }, { protocols: [] }),
    ).rejects.toThrow(
      /DIIA_TRUST_ANCHORS: is neither PEM certificates, a PKCS#7 certificate list nor a DER certificate/,
    );
  });
});
