import jkurwa from "jkurwa";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../../sandbox/src/bankid/index.ts";
import { bankIdEnvelopeLine, ThreadedEnvelopeOpener } from "../../../src/sign-in/bankid/crypto/envelope-opener.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import {
  answerAtBank,
  bankIdErrorOf,
  bankIdSettings,
  finishBankIdSignIn,
  insertDemoPeople,
  startBankIdSignIn,
} from "../../support/bankid.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

// A BankID sign-in through the instance's envelope thread (issue 80): the bank's answer is opened off the event
// loop, in a bounded line whose refusals are a stable 429 (a browser: back to the page with `busy`), and the line
// shows on /metrics.

/**
 * The DSTU signature verifications (the bank's signature, each certificate of its chain) made on this thread, the
 * event loop, while `work` runs: the thread's jkurwa is a module of its own, so its calls are not counted here.
 */
async function verificationsOnTheLoop(work: () => Promise<unknown>): Promise<number> {
  const verify = vi.spyOn(jkurwa.Pub.prototype, "verify");
  const chain = vi.spyOn(jkurwa.Certificate.prototype, "verifySignature");
  try {
    await work();
    return verify.mock.calls.length + chain.mock.calls.length;
  } finally {
    verify.mockRestore();
    chain.mockRestore();
  }
}

describe.each(aboveModelDatabases)("BankID envelopes in the instance's worker thread (%s)", (kind) => {
  let standIn: RunningBankIdStandIn;
  let testApp: TestApp;

  beforeAll(async () => {
    standIn = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    testApp = await createTestApp(kind, bankIdSettings(standIn), { protocols: [] });
    await insertDemoPeople(testApp.app.db);
  }, 180_000);
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
  });

  const scrape = async () => (await testApp.app.inject({ url: "/metrics", remoteAddress: "127.0.0.1" })).body;
  const seriesValue = (metrics: string, series: string) =>
    Number(
      metrics
        .split("\n")
        .find((line) => line.startsWith(`${series} `))
        ?.split(" ")
        .at(-1),
    );

  it("signs in with the bank's answer opened in the thread: no DSTU verification on the event loop", async () => {
    const started = await startBankIdSignIn(testApp.app, { bank: "privatbank" });
    const { answer } = await answerAtBank(started.location, "ordinary");
    let location: unknown;
    const onTheLoop = await verificationsOnTheLoop(async () => {
      location = (await finishBankIdSignIn(testApp.app, answer, started.cookie)).headers.location;
    });
    expect(location).toBe("/uk/apps");
    expect(onTheLoop).toBe(0);
    const metrics = await scrape();
    expect(seriesValue(metrics, 'kpi_id_dstu_check_seconds_count{line="bankid",phase="check"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(seriesValue(metrics, 'kpi_id_dstu_checks{line="bankid",state="waiting"}')).toBe(0);
  });

  it("answers past the line's bound with 429 request.rate_limited and Retry-After, a browser with busy", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const open = ThreadedEnvelopeOpener.prototype.open;
    // The line as a rush leaves it: one answer being opened, as many waiting as the bound allows.
    const spy = vi.spyOn(ThreadedEnvelopeOpener.prototype, "open").mockImplementation(function (
      this: ThreadedEnvelopeOpener,
      ...args
    ) {
      while (this.queue.running + this.queue.waiting < 1 + bankIdEnvelopeLine.maxWaiting)
        void this.queue.run(() => held).catch(() => {});
      return open.apply(this, args);
    });
    try {
      const api = await startBankIdSignIn(testApp.app, { bank: "privatbank" });
      const apiAnswer = (await answerAtBank(api.location, "ordinary")).answer;
      const refused = await finishBankIdSignIn(testApp.app, apiAnswer, api.cookie, "application/json");
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe("request.rate_limited");
      expect(refused.headers["retry-after"]).toBe("10");

      const browser = await startBankIdSignIn(testApp.app, { bank: "privatbank" });
      const browserAnswer = (await answerAtBank(browser.location, "ordinary")).answer;
      const sentBack = await finishBankIdSignIn(testApp.app, browserAnswer, browser.cookie);
      expect(sentBack.statusCode).toBe(302);
      expect(bankIdErrorOf(sentBack)).toBe("busy");

      const metrics = await scrape();
      expect(seriesValue(metrics, 'kpi_id_dstu_checks{line="bankid",state="waiting"}')).toBe(
        bankIdEnvelopeLine.maxWaiting,
      );
      expect(seriesValue(metrics, 'kpi_id_dstu_checks_refused_total{line="bankid",reason="full"}')).toBe(2);
      const audited = await testApp.app.db
        .selectFrom("audit_events")
        .select(["result", "auth_method"])
        .where("reason", "=", "request.rate_limited")
        .orderBy("audit_events.id")
        .execute();
      expect(audited).toEqual([
        { result: "failure", auth_method: "BANK_ID" },
        { result: "failure", auth_method: "BANK_ID" },
      ]);
    } finally {
      release();
      spy.mockRestore();
    }
  });
});
