import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../../sandbox/src/bankid/index.ts";
import { checkBankList } from "../../../src/surfaces/doctor/checks.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import {
  answerAtBank,
  bankIdSettings,
  finishBankIdSignIn,
  insertDemoPeople,
  startBankIdSignIn,
} from "../../support/bankid.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

// NBU's /api/banks is asked at every sign-in (the answer's memberId must be a bank it lists): an outage of that
// one endpoint must not stop them. The last good list is kept in the database and answers, marked stale.
describe.each(aboveModelDatabases)("BankID's bank list when NBU's /api/banks fails (%s)", (kind) => {
  let standIn: RunningBankIdStandIn;
  let testApp: TestApp;
  let now = new Date();

  beforeAll(async () => {
    standIn = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    testApp = await createTestApp(
      kind,
      { ...bankIdSettings(standIn), BANKID_BANKS_CACHE_SECONDS: "60" },
      { clock: () => now, protocols: [] },
    );
    await insertDemoPeople(testApp.app.db);
  }, 180_000);
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
  });

  const banks = () => testApp.app.inject({ method: "GET", url: "/api/banks" });
  const later = (minutes: number) => {
    now = new Date(now.getTime() + minutes * 60_000);
  };

  it("with no list kept, an outage fails (502) and doctor warns", async () => {
    standIn.misbehave.banksDown = true;
    expect((await banks()).statusCode).toBe(502);
    const check = await checkBankList(testApp.app.db, testApp.config, now);
    expect(check).toMatchObject({ status: "warn", message: expect.stringContaining("no bank list kept yet") });
  });

  it("keeps the list NBU gives, then answers with it (stale, dated) while the node fails", async () => {
    standIn.misbehave.banksDown = false;
    later(2);
    const fresh = await banks();
    expect(fresh.json()).toEqual({ banks: expect.any(Array) });
    expect(fresh.json().banks).toHaveLength(3);
    const listedAt = now.toISOString();
    standIn.misbehave.banksDown = true;
    later(2);
    const stale = await banks();
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toMatchObject({ stale: true, listedAt });
    expect(stale.json().banks.map((bank: { id: string }) => bank.id)).toEqual(["privatbank", "monobank", "oschadbank"]);
  });

  it("sign-in goes on during the outage: the bank is checked against the kept list", async () => {
    later(2);
    const started = await startBankIdSignIn(testApp.app, { bank: "monobank" });
    const { answer } = await answerAtBank(started.location, "ordinary", "monobank");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(response.cookies.some((cookie) => cookie.name.endsWith("kpi_id_session") && cookie.value !== "")).toBe(true);
  });

  it("doctor says how old the kept list is once it is a day old", async () => {
    expect(await checkBankList(testApp.app.db, testApp.config, now)).toMatchObject({ status: "ok" });
    const dayLater = new Date(now.getTime() + 25 * 3_600_000);
    expect(await checkBankList(testApp.app.db, testApp.config, dayLater)).toMatchObject({
      status: "warn",
      message: expect.stringMatching(/^the kept bank list is 25 h old/),
    });
  });
});
