import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../../sandbox/src/bankid/index.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import {
  answerAtBank,
  bankIdSettings,
  finishBankIdSignIn,
  insertDemoPeople,
  startBankIdSignIn,
} from "../../support/bankid.ts";

// The stand-in with KPI ID's encryption key (and the banks') on the 431-bit curve, the real sample's
// (SANDBOX_BANKID_CURVE): the configured key loads and every envelope shape opens through the HTTP flow.
describe("sign-in with BankID NBU on the 431-bit curve", () => {
  let standIn: RunningBankIdStandIn;
  let testApp: TestApp;

  beforeAll(async () => {
    standIn = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0, curve: "DSTU_PB_431" });
    testApp = await createTestApp("pglite", bankIdSettings(standIn), { protocols: [] });
    await insertDemoPeople(testApp.app.db);
  }, 180_000);
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
  });

  it.each(["ordinary", "static-issuer", "static-key-id", "static-in-envelope", "no-ukm", "cfb"])(
    "persona %s signs in",
    async (persona) => {
      expect(standIn.pki.organisation.key.curve.m).toBe(431);
      const started = await startBankIdSignIn(testApp.app, { bank: "oschadbank" });
      const { answer } = await answerAtBank(started.location, persona, "oschadbank");
      const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
      expect(response.cookies.some((cookie) => cookie.name.endsWith("kpi_id_session") && cookie.value !== "")).toBe(
        true,
      );
    },
  );
});
