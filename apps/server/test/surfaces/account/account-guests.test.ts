import type { AdminGuests, ErrorBody, Guest, SponsorGuests } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { addAccessRule } from "../../../src/model/access/rules.ts";
import { grantUnitRole } from "../../../src/model/users/unit-roles.ts";
import { runGuestJob } from "../../../src/surfaces/maintenance/guests.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addApplication, manualClock, sessionCookieFrom } from "../../support/campus.ts";
import { addOperator } from "../../support/console.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { guestLinkIn, guestPassword, guestUnits, invitation, inviteGuest, staffMember } from "../../support/guests.ts";
import { startTestMail } from "../../support/mail.ts";

const dayS = 24 * 3600;

/** Issue 78: a member of staff sponsors a guest, who accepts, sets up a second factor and ends on their day. */
describe("sponsored guests", () => {
  let test: TestApp;
  let mail: RunningMailStandIn;
  let units: Awaited<ReturnType<typeof guestUnits>>;
  const clock = manualClock(new Date("2026-03-02T09:00:00Z"));

  beforeAll(async () => {
    mail = await startTestMail();
    test = await createTestApp(aboveModelDatabase, { SMTP_URL: mail.smtpUrl }, { protocols: [], clock: clock.now });
    units = await guestUnits(test.app);
  });
  afterAll(async () => {
    await test?.close();
    await mail?.close();
  });

  // The job's mail is awaited here, so every message is in the stand-in's inbox when the run's counts are.
  const job = async () => {
    const sending: Promise<void>[] = [];
    const counts = await runGuestJob({
      db: test.app.db,
      now: clock.now(),
      guests: test.app.config.guests,
      publicUrl: test.app.config.publicUrl,
      signOut: test.app.signOut,
      send: (message) => {
        if (message) sending.push(test.app.mailer.send(message));
      },
    });
    await Promise.all(sending);
    return counts;
  };
  const mine = async (cookie: string) =>
    (await test.app.inject({ url: "/api/account/guests", headers: { cookie } })).json<SponsorGuests>();

  it("invites, mails the link in the guest's language, and the guest accepts once, only at their address", async () => {
    const app = (await addApplication(test.app)).application;
    await addAccessRule(test.app.db, app.id, { affiliation: "affiliate", unitId: units.fiot }, { actor: "test" });
    const sponsor = await staffMember(test.app, "o.sponsor", units.fiot);
    const card = await mine(sponsor.cookie);
    expect(card.mayInvite).toBe(true);
    expect(card.units.map((unit) => unit.id)).toEqual([units.fiot]);

    const sent = await inviteGuest(
      test.app,
      sponsor.cookie,
      invitation(clock.now(), { unitIds: [units.fiot], language: "uk", email: "Guest.One@example.org" }),
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const guest = sent.json<Guest>();
    expect(guest).toMatchObject({ state: "invited", fullName: "Jane Visitor", units: [{ id: units.fiot }] });
    const letter = await mail.inbox.waitFor((message) => message.to.includes("guest.one@example.org"));
    expect(letter.subject).toBe("Запрошення до KPI ID");
    const { token } = guestLinkIn(letter.text);

    const view = await postJson(test.app, "/api/guests/invitation", { token });
    expect(view.json()).toMatchObject({ fullName: "Jane Visitor", sponsor: "Staff o.sponsor" });
    const elsewhere = await postJson(test.app, "/api/guests/accept", {
      token,
      email: "someone.else@example.org",
      password: guestPassword,
    });
    expect(elsewhere.json<ErrorBody>().code).toBe("guest.invitation_invalid");
    const accepted = await postJson(test.app, "/api/guests/accept", {
      token,
      email: "guest.one@example.org",
      password: guestPassword,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // One factor so far: the guest is sent on to set up their second one, as require_mfa asks of anyone.
    expect(accepted.json<{ next: string }>().next).toContain("second-factor");
    const again = await postJson(test.app, "/api/guests/accept", {
      token,
      email: "guest.one@example.org",
      password: guestPassword,
    });
    expect(again.json<ErrorBody>().code).toBe("guest.invitation_invalid");

    // The guest is `affiliate` in the unit: a rule for guests of FIOT lets them in.
    const cookie = sessionCookieFrom(accepted);
    const user = await test.app.inject({ url: "/user", headers: { cookie } });
    expect(user.json<{ applications: { id: string }[] }>().applications.map((each) => each.id)).toContain(app.id);
    const rows = await test.app.db
      .selectFrom("person_affiliations")
      .select(["affiliation", "unit_id"])
      .where("user_id", "=", guest.id)
      .execute();
    expect(rows).toEqual([{ affiliation: "affiliate", unit_id: units.fiot }]);
    expect((await mine(sponsor.cookie)).guests.find((each) => each.id === guest.id)?.state).toBe("active");
  });

  it("refuses a guest as a sponsor, an end past the maximum and units the sponsor does not work in", async () => {
    const sponsor = await staffMember(test.app, "p.sponsor", units.fel);
    const late = new Date(clock.now().getTime() + 400 * dayS * 1000).toISOString().slice(0, 10);
    const tooLate = await inviteGuest(test.app, sponsor.cookie, invitation(clock.now(), { endsOn: late }));
    expect(tooLate.json<ErrorBody>().code).toBe("guest.end_too_late");
    const otherUnit = await inviteGuest(test.app, sponsor.cookie, invitation(clock.now(), { unitIds: [units.fiot] }));
    expect(otherUnit.json<ErrorBody>().code).toBe("guest.unit_not_allowed");

    const sent = await inviteGuest(test.app, sponsor.cookie, invitation(clock.now(), { email: "g2@example.org" }));
    const { token } = guestLinkIn((await mail.inbox.waitFor((m) => m.to.includes("g2@example.org"))).text);
    const accepted = await postJson(test.app, "/api/guests/accept", {
      token,
      email: "g2@example.org",
      password: guestPassword,
    });
    const guestCookie = sessionCookieFrom(accepted);
    expect((await mine(guestCookie)).mayInvite).toBe(false);
    const byGuest = await inviteGuest(test.app, guestCookie, invitation(clock.now(), { email: "g3@example.org" }));
    expect(byGuest.statusCode).toBe(403);
    expect(byGuest.json<ErrorBody>().code).toBe("guest.not_sponsor");

    // One click extends to the furthest end allowed; a day past it is refused.
    const guestId = sent.json<Guest>().id;
    const extended = await postJson(
      test.app,
      `/api/account/guests/${guestId}/extend`,
      {},
      {
        headers: { cookie: sponsor.cookie },
      },
    );
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json<Guest>().endsAt.slice(0, 10)).toBe(
      new Date(clock.now().getTime() + 365 * dayS * 1000).toISOString().slice(0, 10),
    );
    const past = await postJson(
      test.app,
      `/api/account/guests/${guestId}/extend`,
      { endsOn: late },
      {
        headers: { cookie: sponsor.cookie },
      },
    );
    expect(past.json<ErrorBody>().code).toBe("guest.end_too_late");
  });

  it("reminds 14 and 3 days before, disables at the end, erases after the retention", async () => {
    const sponsor = await staffMember(test.app, "r.sponsor", units.fel);
    const soon = new Date(clock.now().getTime() + 20 * dayS * 1000).toISOString().slice(0, 10);
    const sent = await inviteGuest(
      test.app,
      sponsor.cookie,
      invitation(clock.now(), { endsOn: soon, email: "r@x.org" }),
    );
    const guestId = sent.json<Guest>().id;
    const { token } = guestLinkIn((await mail.inbox.waitFor((m) => m.to.includes("r@x.org"))).text);
    const accepted = await postJson(test.app, "/api/guests/accept", {
      token,
      email: "r@x.org",
      password: guestPassword,
    });
    const guestCookie = sessionCookieFrom(accepted);

    clock.advance(8 * dayS);
    const before = mail.inbox.messages.length;
    expect((await job()).reminded).toBeGreaterThanOrEqual(1);
    await mail.inbox.waitFor((m) => m.to.includes("r@x.org") && m.subject.includes("діє до"), before);
    await mail.inbox.waitFor((m) => m.to.includes("r.sponsor@kpi.ua") && m.subject.includes("закінчується"), before);
    expect((await job()).reminded).toBe(0);
    clock.advance(10 * dayS);
    await job();
    const reminders = await test.app.db
      .selectFrom("audit_events")
      .select("reason")
      .where("event_type", "=", "guest_reminded")
      .where("user_id", "=", guestId)
      .orderBy("audit_events.id")
      .execute();
    expect(reminders.map((row) => row.reason).sort()).toEqual(["days.14", "days.3"]);

    clock.advance(4 * dayS);
    expect((await job()).ended).toBeGreaterThanOrEqual(1);
    expect((await test.app.inject({ url: "/api/user", headers: { cookie: guestCookie } })).statusCode).toBe(401);
    const person = await test.app.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", guestId)
      .executeTakeFirstOrThrow();
    expect(person.status).toBe("disabled");
    expect(
      await test.app.db.selectFrom("person_affiliations").select("user_id").where("user_id", "=", guestId).execute(),
    ).toEqual([]);

    clock.advance(91 * dayS);
    expect((await job()).erased).toBeGreaterThanOrEqual(1);
    const erased = await test.app.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", guestId)
      .executeTakeFirstOrThrow();
    expect(erased.anonymised_at).not.toBeNull();
    expect(erased.email).toBeNull();
  });

  it("hands a leaving sponsor's guests to the operators, who are told", async () => {
    const sponsor = await staffMember(test.app, "l.sponsor", units.fel);
    const admin = await staffMember(test.app, "a.operator", units.kpi);
    await test.app.db.insertInto("operator_roles").values({ user_id: admin.person.id, role: "admin" }).execute();
    const sent = await inviteGuest(test.app, sponsor.cookie, invitation(clock.now(), { email: "l@x.org" }));
    await test.app.db.updateTable("users").set({ status: "disabled" }).where("id", "=", sponsor.person.id).execute();
    const before = mail.inbox.messages.length;
    expect((await job()).handedOver).toBe(1);
    await mail.inbox.waitFor((m) => m.to.includes("a.operator@kpi.ua") && m.subject.includes("передано"), before);
    const row = await test.app.db
      .selectFrom("guests")
      .select(["sponsor_id", "handed_over_at"])
      .where("user_id", "=", sent.json<Guest>().id)
      .executeTakeFirstOrThrow();
    expect(row.sponsor_id).toBeNull();
    expect(row.handed_over_at).not.toBeNull();
    expect((await job()).handedOver).toBe(0);
  });

  it("lets the sponsor end a guest at once", async () => {
    const sponsor = await staffMember(test.app, "e.sponsor", units.fel);
    const sent = await inviteGuest(test.app, sponsor.cookie, invitation(clock.now(), { email: "e@x.org" }));
    const guestId = sent.json<Guest>().id;
    const ended = await postJson(
      test.app,
      `/api/account/guests/${guestId}/end`,
      {},
      {
        headers: { cookie: sponsor.cookie },
      },
    );
    expect(ended.json<Guest>().state).toBe("ended");
    const other = await staffMember(test.app, "x.other", units.fel);
    const notMine = await postJson(
      test.app,
      `/api/account/guests/${guestId}/extend`,
      {},
      {
        headers: { cookie: other.cookie },
      },
    );
    expect(notMine.json<ErrorBody>().code).toBe("guest.not_found");
  });

  it("lists a unit's guests to that unit's console roles only, and every guest to an admin (issue 79)", async () => {
    const inFiot = await staffMember(test.app, "s.units.fiot", units.fiot);
    const inFel = await staffMember(test.app, "s.units.fel", units.fel);
    const fiotGuest = { fullName: "Fiot Visitor", email: "fiot.visitor@example.org", unitIds: [units.fiot] };
    const felGuest = { fullName: "Fel Visitor", email: "fel.visitor@example.org", unitIds: [units.fel] };
    expect((await inviteGuest(test.app, inFiot.cookie, invitation(clock.now(), fiotGuest))).statusCode).toBe(200);
    expect((await inviteGuest(test.app, inFel.cookie, invitation(clock.now(), felGuest))).statusCode).toBe(200);
    const listed = async (cookie: string, query = "") =>
      (await test.app.inject({ url: `/api/admin/guests${query}`, headers: { cookie } }))
        .json<AdminGuests>()
        .guests.map((guest) => guest.fullName)
        .filter((name) => name.endsWith("Visitor") && name !== "Jane Visitor")
        .sort();

    const admin = await addOperator(test.app, ["admin"]);
    expect(await listed(admin.cookie)).toEqual(["Fel Visitor", "Fiot Visitor"]);
    const fiotAdmin = await addOperator(test.app, []);
    await grantUnitRole(test.app.db, fiotAdmin.person.id, units.fiot, "unit_admin");
    expect(await listed(fiotAdmin.cookie)).toEqual(["Fiot Visitor"]);
    // Asking for another unit, or its sponsor, finds nothing rather than reaching past the role.
    expect(await listed(fiotAdmin.cookie, `?unit=${units.fel}`)).toEqual([]);
    expect(await listed(fiotAdmin.cookie, "?sponsor=s.units.fel")).toEqual([]);
    // A role held higher up (the university) reaches the faculties below it.
    const kpiHelpdesk = await addOperator(test.app, []);
    await grantUnitRole(test.app.db, kpiHelpdesk.person.id, units.kpi, "unit_helpdesk");
    expect(await listed(kpiHelpdesk.cookie)).toEqual(["Fel Visitor", "Fiot Visitor"]);
  });
});
