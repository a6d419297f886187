import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import {
  askForDeepLink,
  expectRefused,
  person,
  pollDiia,
  postSignedCallback,
  startTestDiia,
} from "../../support/diia.ts";

// A Diia signature without its signer's certificate, at a university that has not configured that citizen's
// certificate in advance (DIIA_SIGNER_CERTIFICATES unset: it cannot list every citizen's). KPI ID cannot
// check it, and says so, to the person, in the audit trail and in the log, instead of calling it malformed.
describe("a Diia signature whose signer's certificate is nowhere", () => {
  let diia: RunningDiiaStandIn;
  let test: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    diia = await startTestDiia();
    const { DIIA_SIGNER_CERTIFICATES: _configuredSigners, ...withoutSigners } = diia.env;
    test = await createTestApp(
      aboveModelDatabase,
      { ...withoutSigners, LOG_LEVEL: "warn" },
      { logStream: { write: (line) => logLines.push(line) }, protocols: [] },
    );
    await insertUser(test.app.db, { username: "student", full_name: "Олена Коваленко", tax_id: "3012345670" });
  });
  afterAll(async () => {
    await test?.close();
    await diia?.close();
  });

  it("fails the request saying the signature carries no signer's certificate, audited as such", async () => {
    const link = await askForDeepLink(test.app);
    // The stand-in's "shape-signer-absent" persona signs with a CMS that holds no certificate.
    const callback = await postSignedCallback(test.app, link.requestId, person(diia, "shape-signer-absent"));
    expectRefused(callback);
    const poll = await pollDiia(test.app, link.requestId, link.cookie);
    expect(poll.json()).toEqual({ status: "Failed", failure: "signer_certificate_absent" });
    const audited = await test.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("auth_method", "=", "DIIA")
      .orderBy("audit_events.id")
      .execute();
    expect(audited.map((row) => row.reason)).toEqual(["diia.signer_certificate_absent"]);
    const logged = logLines.map((line) => JSON.parse(line) as { msg?: string; reason?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: "Diia callback refused", reason: "diia.signer_certificate_absent" }),
    );
  });
});
