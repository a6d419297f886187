import type { AuthMethod } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireSecondFactor } from "../../../src/model/users/method-lookups.ts";
import { needsStepUp } from "../../../src/protocols/oidc/step-up.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { casApplication, casLogin, ticketIn } from "../../support/cas.ts";
import { sessionCookieOf } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";

const setUp = "/uk/account#second-factor";

/**
 * An operator's "require a second factor of this person" (`user require-mfa`) holds on every way into an application,
 * whatever one-factor method the session began with (issue 74, point 2): it was applied only after a password.
 */
describe("a person the operator requires a second factor of, with a one-factor session", () => {
  let t: TestApp;
  let personId: string;
  let application: Awaited<ReturnType<typeof casApplication>>["application"];
  const service = "https://required.example.edu/app";
  beforeAll(async () => {
    t = await createTestApp(aboveModelDatabase, {}, { protocols: ["tickets", "cas"] });
    const person = await addPerson(
      t.app,
      { username: "required-every-way", fullName: "Вимога Скрізь" },
      "a passphrase",
    );
    personId = person.id;
    ({ application } = await casApplication(t.app, service, { people: [person.id] }));
  });
  afterAll(() => t.close());

  const appRedirect = (cookie: string) =>
    t.app.inject({ url: `/api/app-redirect?appId=${application.id}`, headers: { cookie } });

  it.each<AuthMethod>(["GOOGLE", "PASSWORD"])(
    "after %s: the ticket path and CAS send them to set one up; without the requirement both go on",
    async (method) => {
      await requireSecondFactor(t.app.db, personId, true);
      const cookie = await sessionCookieOf(t.app, personId, method);
      expect((await appRedirect(cookie)).headers.location).toBe(setUp);
      const cas = await casLogin(t.app, cookie, { service });
      expect([cas.location, ticketIn(cas.location)]).toEqual([setUp, ""]);

      await requireSecondFactor(t.app.db, personId, false);
      expect((await appRedirect(cookie)).headers.location).toMatch(/^https:\/\/app\.example\.edu\/kpi-id\/callback\?/);
      expect(ticketIn((await casLogin(t.app, cookie, { service })).location)).toMatch(/^ST-/);
    },
  );

  it("OpenID Connect's and SAML's step-up judge asks the person's requirement too", () => {
    const session = { authMethod: "GOOGLE" as const, amr: ["google"], createdAt: new Date(), strongAt: null };
    const required = { ...session, user: { require_mfa: true } };
    expect(needsStepUp(required, { require_mfa: false }, undefined)).toBe(true);
    expect(needsStepUp({ ...session, user: { require_mfa: false } }, { require_mfa: false }, undefined)).toBe(false);
    expect(needsStepUp({ ...required, amr: ["google", "otp", "mfa"] }, undefined, undefined)).toBe(false);
  });
});
