import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { testBrowser } from "../../support/browser.ts";
import { addApplication, addPerson, manualClock } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { addAuthenticator } from "../../support/mfa.ts";
import { addPasskeyFrom, passkeySignIn, passwordBrowser } from "../../support/passkeys.ts";

const password = "an operator's passphrase";

describe.each(aboveModelDatabases)("the operator's second-factor commands (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
  });
  afterAll(() => t.close());

  const auditReasons = async (userId: string) =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("reason")
        .where("user_id", "=", userId)
        .where("event_type", "=", "second_factor_changed")
        .orderBy("id")
        .execute()
    ).map((row) => row.reason);

  it("user require-mfa leads a person without a factor to set one up after the password; --off undoes it", async () => {
    const person = await addPerson(t.app, { username: "required", fullName: "Вимога Оператора" }, password);
    const on = await runCliOn(t.database.handle, ["user", "require-mfa", "--username", "required", "--json"]);
    expect(on.code).toBe(0);
    const browser = testBrowser(t.app);
    expect((await browser.post("/api/auth", { username: "required", password })).json().setUpSecondFactor).toBe(true);
    await runCliOn(t.database.handle, ["user", "require-mfa", "--username", "required", "--off"]);
    expect(
      (await browser.post("/api/auth", { username: "required", password })).json().setUpSecondFactor,
    ).toBeUndefined();
    expect(await auditReasons(person.id)).toEqual(["operator.require_mfa", "operator.require_mfa_off"]);
    expect((await runCliOn(t.database.handle, ["user", "require-mfa", "--username", "nobody"])).code).not.toBe(0);
  });

  it("user reset-mfa removes the authenticator and passkeys: the password alone signs in again; audited", async () => {
    const person = await addPerson(t.app, { username: "lost-phone", fullName: "Без Телефону" }, password);
    const { authenticator } = await addPasskeyFrom(
      await passwordBrowser(t.app, "lost-phone", password, "192.0.2.9"),
      "K",
    );
    await addAuthenticator(t.app, person, clock.now());
    const browser = testBrowser(t.app);
    expect((await browser.post("/api/auth", { username: "lost-phone", password })).json().secondFactor).toBe("totp");
    const reset = await runCliOn(t.database.handle, ["user", "reset-mfa", "--username", "lost-phone", "--json"]);
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ username: "lost-phone", reset: true, passkeysRemoved: 1 });
    expect((await passkeySignIn(testBrowser(t.app), authenticator)).answer.json().code).toBe("passkey.failed");
    expect((await browser.post("/api/auth", { username: "lost-phone", password })).json().secondFactor).toBeUndefined();
    expect(await auditReasons(person.id)).toEqual(["passkey_added", "operator.reset"]);
  });

  it("app update --require-mfa and --no-require-mfa set the application's requirement", async () => {
    const { application } = await addApplication(t.app);
    const on = await runCliOn(t.database.handle, ["app", "update", "--app", application.id, "--require-mfa", "--json"]);
    expect(JSON.parse(on.stdout).requireMfa).toBe(true);
    const off = await runCliOn(t.database.handle, [
      "app",
      "update",
      "--app",
      application.id,
      "--no-require-mfa",
      "--json",
    ]);
    expect(JSON.parse(off.stdout).requireMfa).toBe(false);
  });
});
