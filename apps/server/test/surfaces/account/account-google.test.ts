import type { AccountMethods } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GoogleAccount } from "../../../../../sandbox/src/google/accounts.ts";
import { type RunningGoogleStandIn, startGoogleStandIn } from "../../../../../sandbox/src/google/index.ts";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import {
  answerAtGoogle,
  demoGoogleAccount,
  finishGoogleSignIn,
  finishGoogleSignInAsPage,
  googleSettings,
  startGoogleSignIn,
} from "../../support/google.ts";
import { startTestMail } from "../../support/mail.ts";

const account = demoGoogleAccount;
const password = "correct horse battery";

/** Issue 16: the account page links a Google account through the same Google flow as sign-in, and unlinks it. */
describe.each(aboveModelDatabases)("linking Google from the account page (%s)", (kind) => {
  let standIn: RunningGoogleStandIn;
  let mail: RunningMailStandIn;
  let test: TestApp;
  const clock = manualClock(new Date());
  let people = 0;

  beforeAll(async () => {
    standIn = await startGoogleStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    mail = await startTestMail();
    test = await createTestApp(
      kind,
      { ...googleSettings(standIn), SMTP_URL: mail.smtpUrl },
      { protocols: [], clock: clock.now },
    );
  });
  afterAll(async () => {
    await test?.close();
    await standIn?.close();
    await mail?.close();
  });

  /** A person with a password (and an e-mail Google does not know), signed in just now. */
  async function signedInPerson(options: { password?: boolean; taxId?: string } = {}) {
    people += 1;
    const username = `linker${people}`;
    const person = await addPerson(
      test.app,
      { username, fullName: "Олена Зв'язкова", email: `${username}@example.org`, taxId: options.taxId },
      password,
    );
    const cookie = await signIn(test.app, username, password);
    if (options.password === false) {
      await test.app.db.updateTable("users").set({ password_hash: null }).where("id", "=", person.id).execute();
    }
    return { id: person.id, cookie };
  }

  const post = (cookie: string, url: string) => postJson(test.app, url, {}, { headers: { cookie } });
  const methodsOf = async (cookie: string) =>
    (await test.app.inject({ url: "/api/account/methods", headers: { cookie } })).json() as AccountMethods;
  const audited = (userId: string, type: string) =>
    test.app.db
      .selectFrom("audit_events")
      .select(["result", "auth_method", "reason"])
      .where("user_id", "=", userId)
      .where("event_type", "=", type)
      .orderBy("audit_events.id")
      .execute();

  /** The account page's "Link Google": start, pick `google` at the stand-in, come back as a page load. */
  async function linkGoogle(cookie: string, google: GoogleAccount) {
    const started = await post(cookie, "/api/account/google/link");
    expect(started.statusCode).toBe(200);
    const pending = started.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const answer = await answerAtGoogle(new URL(started.json().url), google.sub);
    return finishGoogleSignInAsPage(test.app, answer, `${cookie}; ${pending}`);
  }

  it("links the Google account the person picks; it then signs them in; audited and shown in their methods", async () => {
    const person = await signedInPerson();
    const google = account(0);
    expect(await methodsOf(person.cookie)).toMatchObject({
      password: true,
      google: { linked: false, available: true },
    });

    const back = await linkGoogle(person.cookie, google);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe("/uk/account?google_link=linked");
    expect((await methodsOf(person.cookie)).google.linked).toBe(true);
    expect(await audited(person.id, "method_linked")).toEqual([
      { result: "success", auth_method: "GOOGLE", reason: null },
    ]);
    // Linking started no session of its own: the person's cookie is still the one in use.
    expect(back.cookies.some((c) => c.name.endsWith("kpi_id_session"))).toBe(false);

    // The linked Google account now signs this person in (found by subject, not by e-mail).
    const started = await startGoogleSignIn(test.app);
    const signedIn = await finishGoogleSignIn(
      test.app,
      await answerAtGoogle(started.location, google.sub),
      started.cookie,
    );
    expect(signedIn.statusCode).toBe(200);
    const session = signedIn.cookies.find((c) => c.name.endsWith("kpi_id_session"));
    const me = await test.app.inject({ url: "/api/user", headers: { cookie: `${session?.name}=${session?.value}` } });
    expect(me.json().data.EMAIL).toBe(`linker${people}@example.org`);
  });

  it("a Google account that signs someone else in is not linked: back to the account page with linked_elsewhere, audited", async () => {
    const first = await signedInPerson();
    const second = await signedInPerson();
    const google = account(1);
    await linkGoogle(first.cookie, google);
    const back = await linkGoogle(second.cookie, google);
    expect(back.headers.location).toBe("/uk/account?google_link=linked_elsewhere");
    expect((await methodsOf(second.cookie)).google.linked).toBe(false);
    expect(await audited(second.id, "method_linked")).toEqual([
      { result: "failure", auth_method: "GOOGLE", reason: "google.linked_elsewhere" },
    ]);
  });

  it("a link answered after the person signed out of this browser links nobody", async () => {
    const person = await signedInPerson();
    const started = await post(person.cookie, "/api/account/google/link");
    const pending = started.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await post(person.cookie, "/api/auth/logout");
    const answer = await answerAtGoogle(new URL(started.json().url), account(2).sub);
    const back = await finishGoogleSignInAsPage(test.app, answer, `${person.cookie}; ${pending}`);
    expect(back.headers.location).toBe("/uk/account?google_link=expired");
    const links = await test.app.db
      .selectFrom("external_identities")
      .where("user_id", "=", person.id)
      .select("subject")
      .execute();
    expect(links).toEqual([]);
  });

  it("link and unlink need a sign-in within the last 10 minutes: 403 auth.reauth_required", async () => {
    const person = await signedInPerson();
    clock.advance(11 * 60);
    for (const url of ["/api/account/google/link", "/api/account/google/unlink"]) {
      const refused = await post(person.cookie, url);
      expect({ url, status: refused.statusCode, code: refused.json().code }).toEqual({
        url,
        status: 403,
        code: "auth.reauth_required",
      });
    }
    expect(await audited(person.id, "method_unlinked")).toEqual([]);
  });

  it("unlinking ends Google sign-in for the person and is audited", async () => {
    const person = await signedInPerson();
    const google = account(3);
    await linkGoogle(person.cookie, google);
    const unlinked = await post(person.cookie, "/api/account/google/unlink");
    expect(unlinked.json()).toEqual({ unlinked: 1 });
    expect((await methodsOf(person.cookie)).google.linked).toBe(false);
    expect(await audited(person.id, "method_unlinked")).toEqual([
      { result: "success", auth_method: "GOOGLE", reason: null },
    ]);
    const started = await startGoogleSignIn(test.app);
    const refused = await finishGoogleSignIn(
      test.app,
      await answerAtGoogle(started.location, google.sub),
      started.cookie,
    );
    expect(refused.statusCode).toBe(401);
  });

  it("the person is told by mail, in their language, when Google is linked and when it is unlinked", async () => {
    const person = await signedInPerson();
    const address = `linker${people}@example.org`;
    await test.app.db.updateTable("users").set({ verified_email: address }).where("id", "=", person.id).execute();
    const before = mail.inbox.messages.length;
    await linkGoogle(person.cookie, account(5));
    const added = await mail.inbox.waitFor((message) => message.to.includes(address), before);
    expect(added.subject).toBe("Спосіб входу додано: Google");

    const afterLink = mail.inbox.messages.length;
    const unlinked = await postJson(
      test.app,
      "/api/account/google/unlink",
      {},
      { headers: { cookie: person.cookie, "accept-language": "en" } },
    );
    expect(unlinked.statusCode).toBe(200);
    const removed = await mail.inbox.waitFor((message) => message.to.includes(address), afterLink);
    expect(removed.subject).toBe("Sign-in method removed: Google");
    expect(removed.text).toContain("A sign-in method was removed from your KPI ID account: Google.");
  });

  it("Google cannot be unlinked when it is the person's only way in (no password, no tax id for Diia)", async () => {
    const onlyGoogle = await signedInPerson({ password: false });
    const refused = await post(onlyGoogle.cookie, "/api/account/google/unlink");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("account.last_sign_in_method");
    const withDiia = await signedInPerson({ password: false, taxId: "3012345678" });
    expect(await methodsOf(withDiia.cookie)).toMatchObject({ password: false, diia: { usable: true } });
    expect((await post(withDiia.cookie, "/api/account/google/unlink")).statusCode).toBe(200);
  });

  it("a stale session proves it again with Google and comes back to the account page, where the change now goes through", async () => {
    const person = await signedInPerson();
    const google = account(4);
    await linkGoogle(person.cookie, google);
    clock.advance(11 * 60);
    expect((await post(person.cookie, "/api/account/google/unlink")).json().code).toBe("auth.reauth_required");

    const here = await post(person.cookie, "/api/account/reauth/continue");
    expect(here.statusCode).toBe(200);
    const continueCookie = here.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const started = await startGoogleSignIn(test.app);
    const answer = await answerAtGoogle(started.location, google.sub);
    const back = await finishGoogleSignInAsPage(
      test.app,
      answer,
      `${person.cookie}; ${continueCookie}; ${started.cookie}`,
    );
    expect(back.headers.location).toBe("/uk/account");
    const fresh = back.cookies.find((c) => c.name.endsWith("kpi_id_session"));
    expect((await post(`${fresh?.name}=${fresh?.value}`, "/api/account/google/unlink")).statusCode).toBe(200);
  });
});
