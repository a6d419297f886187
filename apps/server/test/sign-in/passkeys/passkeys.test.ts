import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { hashToken } from "../../../src/platform/crypto/tokens.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { type TestBrowserJar, testBrowser } from "../../support/browser.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { softAuthenticator } from "../../support/passkey-authenticator.ts";
import { addPasskeyFrom, passkeySignIn, passwordBrowser, testRelyingParty } from "../../support/passkeys.ts";

const password = "a passphrase before the passkey";

describe.each(aboveModelDatabases)("passkeys (%s)", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  let addresses = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now, protocols: [] });
  });
  afterAll(() => t.close());

  const address = () => `198.51.100.${++addresses}`;
  const newBrowser = () => testBrowser(t.app, address());
  const person = (username: string) => addPerson(t.app, { username, fullName: "Людина З Ключем" }, password);

  async function sessionOf(browser: TestBrowserJar) {
    const token = [...browser.jar].find(([name]) => name.endsWith("kpi_id_session"))?.[1] ?? "";
    return t.app.db
      .selectFrom("sessions")
      .select(["auth_method", "amr", "user_id"])
      .where("token_hash", "=", hashToken(token))
      .executeTakeFirst();
  }

  const signInRows = (userId: string) =>
    t.app.db
      .selectFrom("audit_events")
      .select(["event_type", "result", "reason", "auth_method"])
      .where("user_id", "=", userId)
      .where("auth_method", "=", "PASSKEY")
      .orderBy("id")
      .execute();

  it("registration options: RP id from PUBLIC_URL, attestation none, discoverable, user verification required", async () => {
    await person("options-reader");
    const browser = await passwordBrowser(t.app, "options-reader", password, address());
    const { options } = (await browser.post("/api/account/passkeys/options", {})).json();
    expect(options.rp).toEqual({ id: "localhost", name: "KPI ID" });
    expect(options.attestation).toBe("none");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    // The user handle is the person's id, never their username.
    expect(options.user.name).toBe("options-reader");
    expect(Buffer.from(options.user.id, "base64url")).toHaveLength(16);
    // Without a session: 401; anonymous sign-in options carry no credentials to pick from.
    expect((await newBrowser().post("/api/account/passkeys/options", {})).statusCode).toBe(401);
    const signInOptions = (await newBrowser().post("/api/auth/passkey/options", {})).json().options;
    expect(signInOptions).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(signInOptions.allowCredentials ?? []).toEqual([]);
  });

  it("adds a named passkey after a recent sign-in, lists it with the authenticator's name, signs in with it", async () => {
    const owner = await person("key-holder");
    const browser = await passwordBrowser(t.app, "key-holder", password, address());
    const { authenticator, passkey } = await addPasskeyFrom(browser, "  Робочий ноутбук ");
    expect(passkey).toMatchObject({ name: "Робочий ноутбук", authenticator: "1Password", synced: false });
    expect(passkey.lastUsedAt).toBeNull();

    clock.advance(60);
    const signInBrowser = newBrowser();
    const { answer } = await passkeySignIn(signInBrowser, authenticator);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ok: true, next: "/uk/apps" });
    expect(await sessionOf(signInBrowser)).toEqual({
      auth_method: "PASSKEY",
      amr: ["hwk", "user", "mfa"],
      user_id: owner.id,
    });
    const listed = (await signInBrowser.get("/api/account/passkeys")).json().passkeys;
    expect(listed).toHaveLength(1);
    expect(listed[0].lastUsedAt).toBe(clock.now().toISOString());
    expect((await signInRows(owner.id)).map((row) => `${row.event_type} ${row.result}`)).toEqual([
      "sign_in success",
      "session_start success",
    ]);
    const added = await t.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("user_id", "=", owner.id)
      .where("event_type", "=", "second_factor_changed")
      .orderBy("audit_events.id")
      .execute();
    expect(added.map((row) => row.reason)).toEqual(["passkey_added"]);
  });

  it("a synced passkey signs in as software-held (swk)", async () => {
    await person("synced-key");
    const browser = await passwordBrowser(t.app, "synced-key", password, address());
    const { authenticator, passkey } = await addPasskeyFrom(browser, "Телефон", true);
    expect(passkey.synced).toBe(true);
    const signInBrowser = newBrowser();
    expect((await passkeySignIn(signInBrowser, authenticator)).answer.statusCode).toBe(200);
    expect((await sessionOf(signInBrowser))?.amr).toEqual(["swk", "user", "mfa"]);
  });

  it("adding needs a recent sign-in; the same authenticator is not added twice", async () => {
    await person("stale-session");
    const browser = await passwordBrowser(t.app, "stale-session", password, address());
    const { authenticator } = await addPasskeyFrom(browser, "Ключ");
    // The person holds a passkey now: the password-only session adds no other (issue 35); a passkey sign-in does.
    const weak = await browser.post("/api/account/passkeys/options", {});
    expect(weak.statusCode).toBe(403);
    expect(weak.json().code).toBe("auth.reauth_second_factor_required");
    expect((await passkeySignIn(browser, authenticator)).answer.statusCode).toBe(200);
    const options = (await browser.post("/api/account/passkeys/options", {})).json().options;
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.credentialId]);
    const twice = await browser.post("/api/account/passkeys", {
      name: "Знову",
      response: authenticator.register(options),
    });
    expect(twice.json().code).toBe("passkey.already_registered");

    clock.advance(t.app.config.reauthMaxAgeSeconds + 1);
    const stale = await browser.post("/api/account/passkeys/options", {});
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe("auth.reauth_required");
  });

  it("a challenge works once, in the browser it was given to, for its own ceremony", async () => {
    const owner = await person("replayer");
    const { authenticator } = await addPasskeyFrom(await passwordBrowser(t.app, "replayer", password, address()), "K");
    const browser = newBrowser();
    const { answer, response } = await passkeySignIn(browser, authenticator);
    expect(answer.statusCode).toBe(200);
    // The same answer again: the challenge is gone.
    const replay = await browser.post("/api/auth/passkey", { response });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("passkey.challenge_invalid");

    // Options asked by one browser, answered from another (no binding cookie, or another one).
    const asked = (await newBrowser().post("/api/auth/passkey/options", {})).json().options;
    const elsewhere = newBrowser();
    await elsewhere.post("/api/auth/passkey/options", {});
    const stolen = await elsewhere.post("/api/auth/passkey", { response: authenticator.authenticate(asked) });
    expect(stolen.json().code).toBe("passkey.challenge_invalid");

    // An expired challenge.
    const late = newBrowser();
    const lateOptions = (await late.post("/api/auth/passkey/options", {})).json().options;
    clock.advance(301);
    expect(
      (await late.post("/api/auth/passkey", { response: authenticator.authenticate(lateOptions) })).json().code,
    ).toBe("passkey.challenge_invalid");
    const reasons = (await signInRows(owner.id)).map((row) => row.reason);
    expect(reasons.filter((reason) => reason === "passkey.challenge_invalid")).toHaveLength(3);
  });

  it("a cloned authenticator (its counter did not grow) is refused with its own code and audited", async () => {
    const owner = await person("cloned-key");
    const browser = await passwordBrowser(t.app, "cloned-key", password, address());
    const { authenticator } = await addPasskeyFrom(browser, "Оригінал");
    expect((await passkeySignIn(newBrowser(), authenticator)).answer.statusCode).toBe(200);
    expect((await passkeySignIn(newBrowser(), authenticator)).answer.statusCode).toBe(200);
    const copy = authenticator.clone(1);
    const refused = (await passkeySignIn(newBrowser(), copy)).answer;
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe("passkey.counter_regressed");
    expect((await signInRows(owner.id)).at(-1)).toMatchObject({
      result: "failure",
      reason: "passkey.counter_regressed",
    });
    // The original, whose counter grows, still works.
    expect((await passkeySignIn(newBrowser(), authenticator)).answer.statusCode).toBe(200);
  });

  it("a disabled person's passkey, an unknown one and a wrong origin all answer passkey.failed", async () => {
    const owner = await person("disabled-key");
    const { authenticator } = await addPasskeyFrom(
      await passwordBrowser(t.app, "disabled-key", password, address()),
      "K",
    );
    await disableUser({ db: t.app.db, now: t.app.clock() }, owner.id);
    const disabled = (await passkeySignIn(newBrowser(), authenticator)).answer;
    const unknown = (await passkeySignIn(newBrowser(), softAuthenticator(testRelyingParty))).answer;
    expect(disabled.statusCode).toBe(401);
    expect(disabled.json()).toEqual(unknown.json());
    expect(disabled.json().code).toBe("passkey.failed");
    expect((await signInRows(owner.id)).at(-1)).toMatchObject({ result: "failure", reason: "user.disabled" });

    await person("phished");
    const phished = await addPasskeyFrom(await passwordBrowser(t.app, "phished", password, address()), "K");
    const browser = newBrowser();
    const options = (await browser.post("/api/auth/passkey/options", {})).json().options;
    const response = phished.authenticator.authenticate(options, { origin: "https://kpi-id.example.net" });
    expect((await browser.post("/api/auth/passkey", { response })).json().code).toBe("passkey.failed");
  });

  it("lists, renames and removes only the person's own passkeys; a removed one signs in no more", async () => {
    await person("tidy-one");
    await person("other-one");
    const browser = await passwordBrowser(t.app, "tidy-one", password, address());
    const { authenticator, passkey } = await addPasskeyFrom(browser, "Старий");
    const other = await passwordBrowser(t.app, "other-one", password, address());
    expect((await other.post("/api/account/passkeys/remove", { id: passkey.id })).json().code).toBe(
      "passkey.not_found",
    );
    expect((await other.post("/api/account/passkeys/rename", { id: passkey.id, name: "Мій" })).statusCode).toBe(404);

    const renamed = await browser.post("/api/account/passkeys/rename", { id: passkey.id, name: "Новий" });
    expect(renamed.json()).toMatchObject({ id: passkey.id, name: "Новий" });
    // Removing it wants a sign-in that proved a second factor: the password session is refused, the passkey's passes.
    const weak = await browser.post("/api/account/passkeys/remove", { id: passkey.id });
    expect(weak.json().code).toBe("auth.reauth_second_factor_required");
    expect((await passkeySignIn(browser, authenticator)).answer.statusCode).toBe(200);
    expect((await browser.post("/api/account/passkeys/remove", { id: passkey.id })).json()).toEqual({ ok: true });
    expect((await browser.get("/api/account/passkeys")).json()).toEqual({ passkeys: [] });
    expect((await passkeySignIn(newBrowser(), authenticator)).answer.json().code).toBe("passkey.failed");
  });

  it("wrong passkeys count against the sign-in throttle like wrong passwords", async () => {
    await person("throttled-key");
    const { authenticator } = await addPasskeyFrom(
      await passwordBrowser(t.app, "throttled-key", password, address()),
      "K",
    );
    const browser = newBrowser();
    const codes: string[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const options = (await browser.post("/api/auth/passkey/options", {})).json().options;
      const response = authenticator.authenticate(options, { origin: "https://evil.example" });
      codes.push((await browser.post("/api/auth/passkey", { response })).json().code);
    }
    expect(codes[0]).toBe("passkey.failed");
    expect(codes).toContain("auth.too_many_attempts");
  });
});
