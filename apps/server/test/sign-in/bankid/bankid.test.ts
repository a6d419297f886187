import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../../sandbox/src/bankid/index.ts";
import { bankIdPersonas } from "../../../../../sandbox/src/bankid/personas.ts";
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

describe.each(aboveModelDatabases)("sign-in with BankID NBU through the stand-in (%s)", (kind) => {
  let standIn: RunningBankIdStandIn;
  let testApp: TestApp;
  let userIds: Record<string, string> = {};

  beforeAll(async () => {
    standIn = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    testApp = await createTestApp(kind, bankIdSettings(standIn), { protocols: [] });
    userIds = await insertDemoPeople(testApp.app.db);
    // Keys are made in JavaScript and the database migrated: slow on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await testApp?.close();
    await standIn?.close();
  });

  const sessionOf = (id: string) =>
    testApp.app.db.selectFrom("sessions").select(["user_id", "auth_method", "amr"]).where("user_id", "=", id).execute();

  it("turns the features on and lists only workable banks, with absolute logo URLs", async () => {
    const settings = await testApp.app.inject({ method: "GET", url: "/api/settings" });
    expect(settings.json()).toMatchObject({ bankIdEnabled: true, bankIdBankPicker: true });
    const banks = await testApp.app.inject({ method: "GET", url: "/api/banks" });
    expect(banks.statusCode).toBe(200);
    const list = banks.json().banks as { id: string; logoUrl?: string }[];
    expect(list.map((bank) => bank.id)).toEqual(["privatbank", "monobank", "oschadbank"]);
    expect(list[0]?.logoUrl).toBe(`${standIn.url}/logos/privatbank.svg`);
  });

  it("sends the browser to NBU's authorize URL with state, client, redirect_uri and the bank", async () => {
    const { location, cookie } = await startBankIdSignIn(testApp.app, { bank: "monobank" });
    expect(`${location.origin}${location.pathname}`).toBe(`${standIn.url}/v1/bank/oauth2/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: "code",
      client_id: standIn.clientId,
      redirect_uri: `${TEST_PUBLIC_URL}/bankid-auth`,
      bank_id: "monobank",
    });
    expect(location.searchParams.get("state")).toMatch(/^uk\.[\w-]{22}$/);
    expect(location.searchParams.has("dataset")).toBe(false);
    expect(cookie).toContain("kpi_id_bankid=");
  });

  it("registers one callback address for both languages: the state carries the language", async () => {
    const started = await testApp.app.inject({
      method: "GET",
      url: "/api/bankid/redirect?bank=monobank",
      headers: { accept: "application/json", "accept-language": "en" },
    });
    const location = new URL(String(started.headers.location));
    expect(location.searchParams.get("redirect_uri")).toBe(`${TEST_PUBLIC_URL}/bankid-auth`);
    const state = location.searchParams.get("state") ?? "";
    expect(state).toMatch(/^en\.[\w-]{22}$/);
    // The answer reaches a browser without the pending cookie (gone, or another browser): still in English.
    const response = await finishBankIdSignIn(testApp.app, { code: "whatever", state }, "");
    expect(response.headers.location).toBe("/en/?bankid_auth_error=expired");
  });

  it("refuses a bank that is not workable and one NBU does not list", async () => {
    for (const bank of ["sleepybank", "no-such-bank"]) {
      const response = await testApp.app.inject({
        method: "GET",
        url: `/api/bankid/redirect?bank=${bank}`,
        headers: { accept: "text/html" },
      });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe("/uk/?bankid_auth_error=unavailable");
    }
  });

  for (const persona of bankIdPersonas) {
    it(`persona ${persona.id}: ${persona.expect.outcome === "signed_in" ? `signs in ${persona.expect.username}` : `refused as ${persona.expect.reason}`}`, async () => {
      const started = await startBankIdSignIn(testApp.app, { bank: "privatbank" });
      const { answer } = await answerAtBank(started.location, persona.id);
      const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
      expect(response.statusCode).toBe(302);
      if (persona.expect.outcome === "signed_in") {
        expect(response.headers.location).toBe("/uk/apps");
        const sessions = await sessionOf(userIds[persona.expect.username] ?? "");
        expect(sessions.at(-1)).toMatchObject({ auth_method: "BANK_ID", amr: ["bankid", "mfa"] });
        const audit = await testApp.app.db
          .selectFrom("audit_events")
          .select(["result", "auth_method"])
          .where("event_type", "=", "sign_in")
          .where("user_id", "=", userIds[persona.expect.username] ?? "")
          .orderBy("audit_events.id")
          .execute();
        expect(audit).toContainEqual({ result: "success", auth_method: "BANK_ID" });
      } else {
        expect(bankIdErrorOf(response)).toBe(persona.expect.reason);
        expect(response.cookies.some((c) => c.name.endsWith("kpi_id_session") && c.value !== "")).toBe(false);
      }
    });
  }

  it("refuses a disabled person, found by tax id", async () => {
    const id = userIds.employee ?? "";
    await testApp.app.db.updateTable("users").set({ status: "disabled" }).where("id", "=", id).execute();
    try {
      const started = await startBankIdSignIn(testApp.app);
      const { answer } = await answerAtBank(started.location, "capitals");
      const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
      expect(bankIdErrorOf(response)).toBe("account_disabled");
    } finally {
      await testApp.app.db.updateTable("users").set({ status: "active" }).where("id", "=", id).execute();
    }
  });

  it("answers a caller that is not a browser with the error code, and audits the failure", async () => {
    const started = await startBankIdSignIn(testApp.app);
    const { answer } = await answerAtBank(started.location, "stranger");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie, "application/json");
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("bankid.failed");
    const row = await testApp.app.db
      .selectFrom("audit_events")
      .select(["result", "auth_method", "reason"])
      .where("reason", "=", "bankid.no_match")
      .executeTakeFirst();
    expect(row).toEqual({ result: "failure", auth_method: "BANK_ID", reason: "bankid.no_match" });
  });

  it("continues to the application the sign-in started from", async () => {
    const appId = "5b0c2f7e-3a51-4c1e-9d59-0b6f5f0f2a11";
    const started = await startBankIdSignIn(testApp.app, { appId, state: "app-state" });
    const { answer } = await answerAtBank(started.location, "ordinary");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(response.headers.location).toBe(`/uk/apps?appId=${appId}&state=app-state`);
  });

  it("recovery: proves who the person is and leads to a new password, not a session", async () => {
    const started = await startBankIdSignIn(testApp.app, { purpose: "recovery" });
    const { answer } = await answerAtBank(started.location, "no-tax-id-passport");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(String(response.headers.location)).toMatch(/^\/uk\/reset-password#token=[\w-]+$/);
    expect(response.cookies.some((c) => c.name.endsWith("kpi_id_session") && c.value !== "")).toBe(false);
    const token = await testApp.app.db
      .selectFrom("password_reset_tokens")
      .select(["user_id", "via"])
      .where("user_id", "=", userIds.newcomer ?? "")
      .executeTakeFirst();
    expect(token).toEqual({ user_id: userIds.newcomer, via: "bankid" });
  });

  it("recovery failures go back to the forgot-password page", async () => {
    const started = await startBankIdSignIn(testApp.app, { purpose: "recovery" });
    const { answer } = await answerAtBank(started.location, "stranger");
    const response = await finishBankIdSignIn(testApp.app, answer, started.cookie);
    expect(response.headers.location).toBe("/uk/forgot-password?via=bankid&bankid_auth_error=no_account");
  });
});
