import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBankIdStandIn, startBankIdStandIn } from "../../../../../sandbox/src/bankid/index.ts";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import {
  answerAtBank,
  bankIdErrorOf,
  bankIdSettings,
  finishBankIdSignIn,
  insertDemoPeople,
  startBankIdSignIn,
} from "../../support/bankid.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { guestLinkIn, guestUnits, invitation, inviteGuest, staffMember } from "../../support/guests.ts";
import { startTestMail } from "../../support/mail.ts";

/** Issue 78: a Ukrainian guest accepts their invitation with BankID instead of a password and a second factor. */
describe.each(aboveModelDatabases)("accepting a guest invitation with BankID (%s)", (kind) => {
  let standIn: RunningBankIdStandIn;
  let mail: RunningMailStandIn;
  let test: TestApp;
  let sponsorCookie = "";

  beforeAll(async () => {
    standIn = await startBankIdStandIn({ productUrl: TEST_PUBLIC_URL, port: 0 });
    mail = await startTestMail();
    test = await createTestApp(kind, { ...bankIdSettings(standIn), SMTP_URL: mail.smtpUrl }, { protocols: [] });
    await insertDemoPeople(test.app.db);
    const units = await guestUnits(test.app);
    sponsorCookie = (await staffMember(test.app, "b.sponsor", units.fiot)).cookie;
  }, 180_000);
  afterAll(async () => {
    await test?.close();
    await standIn?.close();
    await mail?.close();
  });

  /** Invites `email`, answers the guest's id and the link's token. */
  const invite = async (email: string) => {
    const sent = await inviteGuest(test.app, sponsorCookie, invitation(new Date(), { email, fullName: "Typed Name" }));
    expect(sent.statusCode, sent.body).toBe(200);
    const { token } = guestLinkIn((await mail.inbox.waitFor((m) => m.to.includes(email))).text);
    return { id: sent.json<{ id: string }>().id, token };
  };
  /** The invitation page's BankID button: the bank's address, and the pending cookie the browser keeps. */
  const startAccepting = async (token: string, email: string) => {
    const started = await postJson(test.app, "/api/guests/accept/bankid", { token, email });
    expect(started.statusCode, started.body).toBe(200);
    const cookie = started.cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; ");
    return { location: new URL(started.json<{ url: string }>().url), cookie };
  };
  const person = (id: string) =>
    test.app.db
      .selectFrom("users")
      .select(["full_name", "tax_id", "password_hash"])
      .where("id", "=", id)
      .executeTakeFirst();

  it("takes the state's name, is identity-proofed, needs no password, and BankID signs them in next time", async () => {
    const guest = await invite("taras@example.org");
    const started = await startAccepting(guest.token, "taras@example.org");
    const { answer } = await answerAtBank(started.location, "stranger");
    const finished = await finishBankIdSignIn(test.app, answer, started.cookie);
    expect(finished.statusCode).toBe(302);
    expect(bankIdErrorOf(finished)).toBeNull();
    expect(await person(guest.id)).toMatchObject({ full_name: "Сидоренко Тарас Іванович", password_hash: null });
    expect((await person(guest.id))?.tax_id).toBeTruthy();
    const sessions = await test.app.db
      .selectFrom("sessions")
      .select(["auth_method", "amr"])
      .where("user_id", "=", guest.id)
      .execute();
    expect(sessions).toContainEqual({ auth_method: "BANK_ID", amr: ["bankid", "mfa"] });

    // The link is used up: neither BankID nor a password takes it again.
    const again = await postJson(test.app, "/api/guests/accept/bankid", {
      token: guest.token,
      email: "taras@example.org",
    });
    expect(again.json()).toMatchObject({ code: "guest.invitation_invalid" });

    // Next time an ordinary BankID sign-in finds the guest by the tax id.
    const next = await startBankIdSignIn(test.app);
    const back = await finishBankIdSignIn(
      test.app,
      (await answerAtBank(next.location, "stranger")).answer,
      next.cookie,
    );
    expect(back.headers.location).toBe("/uk/apps");
    const count = await test.app.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", guest.id)
      .where("auth_method", "=", "BANK_ID")
      .execute();
    expect(count).toHaveLength(2);
  });

  it("refuses a state identity already on another person, and the link stays good", async () => {
    const guest = await invite("olena@example.org");
    const started = await startAccepting(guest.token, "olena@example.org");
    const { answer } = await answerAtBank(started.location, "ordinary");
    const finished = await finishBankIdSignIn(test.app, answer, started.cookie);
    expect(finished.headers.location).toBe("/uk/guest?bankid_auth_error=identity_linked");
    expect(await person(guest.id)).toMatchObject({ full_name: "Typed Name", tax_id: null });
    const view = await postJson(test.app, "/api/guests/invitation", { token: guest.token });
    expect(view.statusCode).toBe(200);
  });

  it("works only for the address the invitation was sent to", async () => {
    const guest = await invite("third@example.org");
    const started = await startAccepting(guest.token, "someone.else@example.org");
    const { answer } = await answerAtBank(started.location, "stranger");
    const finished = await finishBankIdSignIn(test.app, answer, started.cookie);
    expect(finished.statusCode).toBe(302);
    expect(await person(guest.id)).toMatchObject({ tax_id: null });
  });
});
