import type { ErrorBody, Guest } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../sandbox/src/mail/index.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { manualClock, sessionCookieFrom } from "../support/campus.ts";
import { aboveModelDatabase } from "../support/databases.ts";
import { guestLinkIn, guestPassword, guestUnits, invitation, inviteGuest, staffMember } from "../support/guests.ts";
import { startTestMail } from "../support/mail.ts";

const codeOf = (response: { json(): unknown }) => (response.json() as ErrorBody).code;

/**
 * Attacks on sponsored guests (issue 78): a guest sponsoring, an end past the maximum, another sponsor's guest, an
 * invitation link used twice or by another address (or its address guessed), and the limits per sponsor, per unit
 * and per hour, also when invitations race for the last place.
 */
describe("attacks on sponsored guests", () => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  let units: Awaited<ReturnType<typeof guestUnits>>;
  const clock = manualClock(new Date("2026-05-04T08:00:00Z"));

  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp(
      aboveModelDatabase,
      {
        SMTP_URL: mail.smtpUrl,
        GUEST_MAX_DAYS: "90",
        GUEST_LIMIT_PER_SPONSOR: "3",
        GUEST_LIMIT_PER_UNIT: "4",
        GUEST_INVITATIONS_PER_HOUR: "5",
      },
      { clock: clock.now },
    );
    units = await guestUnits(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  const day = (days: number) => new Date(clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
  let mailbox = 0;
  const address = () => `visitor${++mailbox}@example.org`;

  async function acceptedGuest(sponsorCookie: string) {
    const email = address();
    const sent = await inviteGuest(t.app, sponsorCookie, invitation(clock.now(), { email, endsOn: day(30) }));
    expect(sent.statusCode, sent.body).toBe(200);
    const { token } = guestLinkIn((await mail.inbox.waitFor((m) => m.to.includes(email))).text);
    const accepted = await postJson(t.app, "/api/guests/accept", { token, email, password: guestPassword });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return { guest: sent.json<Guest>(), cookie: sessionCookieFrom(accepted), token, email };
  }

  it("a guest cannot sponsor, nor open the console's guests", async () => {
    const sponsor = await staffMember(t.app, "s.one", units.fiot);
    const { cookie } = await acceptedGuest(sponsor.cookie);
    const byGuest = await inviteGuest(t.app, cookie, invitation(clock.now(), { email: address(), endsOn: day(10) }));
    expect(byGuest.statusCode).toBe(403);
    expect(codeOf(byGuest)).toBe("guest.not_sponsor");
    const consoleList = await t.app.inject({ url: "/api/admin/guests", headers: { cookie } });
    expect(consoleList.statusCode).toBe(403);
  });

  it("a sponsor cannot extend past the maximum, nor touch another sponsor's guest", async () => {
    const sponsor = await staffMember(t.app, "s.two", units.fel);
    const { guest } = await acceptedGuest(sponsor.cookie);
    const extend = (cookie: string, body: object) =>
      postJson(t.app, `/api/account/guests/${guest.id}/extend`, body, { headers: { cookie } });
    for (const endsOn of [day(91), day(400), "2999-12-31", "2026-02-30"]) {
      const refused = await extend(sponsor.cookie, { endsOn });
      expect(refused.statusCode, endsOn).toBe(400);
    }
    const oneClick = await extend(sponsor.cookie, {});
    expect(oneClick.json<Guest>().endsAt.slice(0, 10)).toBe(day(90));
    const invited = await inviteGuest(t.app, sponsor.cookie, invitation(clock.now(), { endsOn: day(91) }));
    expect(codeOf(invited)).toBe("guest.end_too_late");

    const stranger = await staffMember(t.app, "s.stranger", units.fel);
    expect(codeOf(await extend(stranger.cookie, {}))).toBe("guest.not_found");
    const ending = await postJson(
      t.app,
      `/api/account/guests/${guest.id}/end`,
      {},
      {
        headers: { cookie: stranger.cookie },
      },
    );
    expect(codeOf(ending)).toBe("guest.not_found");
    const row = await t.app.db
      .selectFrom("guests")
      .select("ended_at")
      .where("user_id", "=", guest.id)
      .executeTakeFirst();
    expect(row?.ended_at).toBeNull();
  });

  it("an invitation link works once, only for its address, and its address cannot be guessed", async () => {
    const sponsor = await staffMember(t.app, "s.three", units.fel);
    const { token, email } = await acceptedGuest(sponsor.cookie);
    const twice = await postJson(t.app, "/api/guests/accept", { token, email, password: "another long passphrase" });
    expect(codeOf(twice)).toBe("guest.invitation_invalid");
    expect(codeOf(await postJson(t.app, "/api/guests/invitation", { token }))).toBe("guest.invitation_invalid");

    const target = address();
    await inviteGuest(t.app, sponsor.cookie, invitation(clock.now(), { email: target, endsOn: day(20) }));
    const fresh = guestLinkIn((await mail.inbox.waitFor((m) => m.to.includes(target))).text).token;
    const answers: number[] = [];
    for (let guess = 0; guess < 12; guess++) {
      const tried = await postJson(t.app, "/api/guests/accept", {
        token: fresh,
        email: `guess${guess}@example.org`,
        password: guestPassword,
      });
      answers.push(tried.statusCode);
    }
    expect(answers.slice(0, 3)).toEqual([400, 400, 400]);
    expect(answers).toContain(429);
    // A link forwarded to someone is no use to them, and the guesses did not spend it for its owner.
    clock.advance(16 * 60);
    const owner = await postJson(t.app, "/api/guests/accept", { token: fresh, email: target, password: guestPassword });
    expect(owner.statusCode, owner.body).toBe(200);
    // An expired link is refused too.
    const late = address();
    await inviteGuest(t.app, sponsor.cookie, invitation(clock.now(), { email: late, endsOn: day(20) }));
    const stale = guestLinkIn((await mail.inbox.waitFor((m) => m.to.includes(late))).text).token;
    clock.advance(8 * 86_400);
    expect(
      codeOf(await postJson(t.app, "/api/guests/accept", { token: stale, email: late, password: guestPassword })),
    ).toBe("guest.invitation_invalid");
  });

  it("holds the limits per sponsor, per unit and per hour, also for invitations sent at once", async () => {
    clock.advance(2 * 3600);
    const sponsor = await staffMember(t.app, "s.four", units.fiot);
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        inviteGuest(t.app, sponsor.cookie, invitation(clock.now(), { email: address(), endsOn: day(20) })),
      ),
    );
    expect(racing.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(racing.filter((answer) => codeOf(answer) === "guest.sponsor_limit")).toHaveLength(2);

    // Per unit: four guests in FIOT at most (s.one's guest is not attached to a unit).
    clock.advance(2 * 3600);
    const colleagues = [await staffMember(t.app, "s.five", units.fiot), await staffMember(t.app, "s.six", units.fiot)];
    const inUnit = [];
    for (const colleague of colleagues) {
      for (let n = 0; n < 3; n++) {
        const body = invitation(clock.now(), { email: address(), endsOn: day(20), unitIds: [units.fiot] });
        inUnit.push(await inviteGuest(t.app, colleague.cookie, body));
      }
    }
    expect(inUnit.filter((answer) => answer.statusCode === 200)).toHaveLength(4);
    expect(inUnit.filter((answer) => codeOf(answer) === "guest.unit_limit")).toHaveLength(2);

    // Per hour: the sixth invitation in an hour waits, even when each was refused for another reason.
    clock.advance(2 * 3600);
    const busy = await staffMember(t.app, "s.seven", units.fel);
    const hour = [];
    for (let n = 0; n < 6; n++) {
      hour.push(await inviteGuest(t.app, busy.cookie, invitation(clock.now(), { email: address(), endsOn: day(200) })));
    }
    expect(hour.slice(0, 5).map(codeOf)).toEqual(Array(5).fill("guest.end_too_late"));
    const sixth = hour[5];
    expect(sixth?.statusCode).toBe(429);
    expect(sixth && codeOf(sixth)).toBe("guest.too_many_invitations");
  });
});
