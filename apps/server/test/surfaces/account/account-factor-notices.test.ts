import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPersonWithVerifiedEmail, startTestMail } from "../../support/mail.ts";
import { addPasskeyFrom, passkeySignIn, passwordBrowser } from "../../support/passkeys.ts";

const password = "a passphrase told by mail";

/**
 * Adding or removing a passkey or an authenticator app changes how the account can be entered, so the
 * person is told by mail at their confirmed address, as for a password or Google (a stranger who got in
 * would otherwise add their own key unseen).
 */
describe("the person is told when a passkey or an authenticator app is added or removed", () => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp("pglite", { SMTP_URL: mail.smtpUrl }, { protocols: [] });
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const told = (address: string, after: number) => mail.inbox.waitFor((message) => message.to.includes(address), after);

  /** A person with a confirmed address, signed in with the password on the account page. */
  async function signedInWithAddress(username: string, fullName: string, remoteAddress: string) {
    const address = `${username}@example.org`;
    await addPersonWithVerifiedEmail(t.app, { username, fullName, email: address }, password);
    return { address, browser: await passwordBrowser(t.app, username, password, remoteAddress) };
  }

  it("an authenticator app set up and turned off: two messages", async () => {
    const { address, browser } = await signedInWithAddress("totp.told", "Олена Сповіщена", "198.51.100.61");
    const setup = await browser.post("/api/account/totp", {});
    const before = mail.inbox.messages.length;
    const code = await generate({ secret: setup.json().secret, epoch: Math.floor(t.app.clock().getTime() / 1000) });
    const confirmed = await browser.post("/api/account/totp/confirm", { code });
    expect(confirmed.statusCode).toBe(200);
    const added = await told(address, before);
    expect(added.subject).toBe("Спосіб входу додано: застосунок-автентифікатор (другий фактор)");

    // Turning it off wants a sign-in with the factor (issue 35): the password and one of the recovery codes.
    const auth = await browser.post("/api/auth", { username: "totp.told", password });
    const [recoveryCode] = confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    await browser.post("/api/auth/second-factor", { sessionId: auth.json().sessionId, code: recoveryCode });
    expect((await browser.post("/api/auth/internal", { sessionId: auth.json().sessionId })).statusCode).toBe(200);
    const afterAdd = mail.inbox.messages.length;
    expect((await browser.post("/api/account/totp/remove", {})).statusCode).toBe(200);
    const notice = await told(address, afterAdd);
    expect(notice.subject).toBe("Спосіб входу вилучено: застосунок-автентифікатор (другий фактор)");
    expect(notice.text).toContain("вилучено спосіб входу: застосунок-автентифікатор");
  });

  it("a passkey added and removed: two messages", async () => {
    const { address, browser } = await signedInWithAddress("passkey.told", "Петро Сповіщений", "198.51.100.62");
    const before = mail.inbox.messages.length;
    const { passkey, authenticator } = await addPasskeyFrom(browser, "Телефон");
    expect((await told(address, before)).subject).toBe("Спосіб входу додано: ключ доступу");
    // Removing it wants a sign-in with a second factor (issue 35): the passkey itself.
    expect((await passkeySignIn(browser, authenticator)).answer.statusCode).toBe(200);

    const afterAdd = mail.inbox.messages.length;
    expect((await browser.post("/api/account/passkeys/remove", { id: passkey.id })).statusCode).toBe(200);
    expect((await told(address, afterAdd)).subject).toBe("Спосіб входу вилучено: ключ доступу");
  });
});
