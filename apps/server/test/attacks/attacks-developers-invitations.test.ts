import {
  accountActivityListSchema,
  developerApplicationSchema,
  developerApplicationsSchema,
  developerMembershipsSchema,
} from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../sandbox/src/mail/index.ts";
import { cleanUpExpired } from "../../src/surfaces/maintenance/cleanup.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { signIn } from "../support/campus.ts";
import { databaseKinds } from "../support/databases.ts";
import { addMember, addStudent, registerApplication } from "../support/developers.ts";
import { untilSomeoneWaitsForALock } from "../support/lock-waits.ts";
import { startTestMail } from "../support/mail.ts";

/**
 * Issue 56, points 3 and 4: nobody becomes a co-owner or tester without accepting, and inviting tells nobody
 * whether a name or address has an account.
 */
describe.each(databaseKinds)("attacks on developers' invitations (%s)", (kind) => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp(kind, { DEVELOPER_MAX_APPLICATIONS: "2", SMTP_URL: mail.smtpUrl });
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  const appUrl = (id: string) => `/api/developers/applications/${id}`;
  const invitationsOf = async (cookie: string) =>
    developerMembershipsSchema.parse((await get("/api/developers/invitations", cookie)).json()).invitations;
  const activityOf = async (cookie: string) =>
    accountActivityListSchema
      .parse((await get("/api/account/activity", cookie)).json())
      .events.map((event) => event.type);
  const confirmAddress = (userId: string, email: string) =>
    t.app.db.updateTable("users").set({ verified_email: email }).where("id", "=", userId).execute();

  it("forced co-owner: an invited victim is no owner until they accept, and the inviter cannot hand it off", async () => {
    const attacker = await addStudent(t.app, "attacker");
    const victim = await addStudent(t.app, "victim");
    await confirmAddress(victim.person.id, `${victim.username}@kpi.ua`);
    const { application } = await registerApplication(t.app, attacker.cookie, {
      title: "Електронний кампус",
      titleEn: "Campus",
      callbackUrls: ["https://evil.example/callback"],
    });
    const before = mail.inbox.messages.length;
    const invited = await post(`${appUrl(application.id)}/owners`, { person: victim.username }, attacker.cookie);
    expect(invited.statusCode).toBe(200);
    expect(developerApplicationSchema.parse(invited.json()).owners.map((owner) => owner.username)).toEqual([
      attacker.username,
    ]);
    // Removing yourself after "adding" the victim leaves nobody: the victim has not accepted.
    const handOff = await post(
      `${appUrl(application.id)}/owners/remove`,
      { username: attacker.username },
      attacker.cookie,
    );
    expect(handOff.json()).toMatchObject({ code: "developer.last_owner" });
    expect((await get(appUrl(application.id), victim.cookie)).statusCode).toBe(404);
    const theirs = developerApplicationsSchema.parse((await get("/api/developers/applications", victim.cookie)).json());
    expect(theirs.applications).toEqual([]);
    // They are told: a mail to their confirmed address in their language and a notice on their page.
    const message = await mail.inbox.waitFor((each) => each.to.includes(`${victim.username}@kpi.ua`), before);
    expect(message.subject).toContain("Електронний кампус");
    expect(message.text).toContain(attacker.username);
    expect(message.text).toContain("/uk/developers");
    const [notice] = await invitationsOf(victim.cookie);
    expect(notice).toMatchObject({ role: "owner", title: "Електронний кампус", invitedBy: attacker.username });
    const declined = await post(`/api/developers/invitations/${notice?.id}/decline`, {}, victim.cookie);
    expect(developerMembershipsSchema.parse(declined.json()).invitations).toEqual([]);
    expect((await get(appUrl(application.id), victim.cookie)).statusCode).toBe(404);
    const again = await post(`/api/developers/invitations/${notice?.id}/accept`, {}, victim.cookie);
    expect(again.json()).toMatchObject({ code: "developer.invitation_not_found" });
    expect(await activityOf(victim.cookie)).toEqual(
      expect.arrayContaining(["application_invitation_received", "application_invitation_declined"]),
    );
    expect(await activityOf(attacker.cookie)).toContain("application_invitation_sent");
  });

  it("forced co-owner: the limit is checked when the person accepts, and invitations never fill it", async () => {
    const victim = await addStudent(t.app, "busy");
    await registerApplication(t.app, victim.cookie);
    for (const name of ["pusher-a", "pusher-b"]) {
      const pusher = await addStudent(t.app, name);
      const { application } = await registerApplication(t.app, pusher.cookie);
      await post(`${appUrl(application.id)}/owners`, { person: victim.username }, pusher.cookie);
    }
    expect(await invitationsOf(victim.cookie)).toHaveLength(2);
    // Two waiting invitations do not count: their own second registration still goes through.
    await registerApplication(t.app, victim.cookie);
    const [first] = await invitationsOf(victim.cookie);
    const refused = await post(`/api/developers/invitations/${first?.id}/accept`, {}, victim.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "developer.limit_reached" });
    // The invitation waits: after leaving one of their own (with a co-owner left behind), they may accept.
    const list = developerApplicationsSchema.parse((await get("/api/developers/applications", victim.cookie)).json());
    const own = list.applications[0]?.id ?? "";
    const friend = await addStudent(t.app, "friend");
    await addMember(t.app, own, "owner", victim, friend);
    const left = await post(`${appUrl(own)}/leave`, { role: "owner" }, victim.cookie);
    expect(left.statusCode).toBe(200);
    expect((await post(`/api/developers/invitations/${first?.id}/accept`, {}, victim.cookie)).statusCode).toBe(200);
    expect(await activityOf(victim.cookie)).toEqual(
      expect.arrayContaining(["application_invitation_accepted", "application_left"]),
    );
  });

  it("forced co-owner: inviting an owner needs a recent sign-in; a tester invitation does not", async () => {
    const owner = await addStudent(t.app, "stale");
    const classmate = await addStudent(t.app, "classmate");
    const { application } = await registerApplication(t.app, owner.cookie);
    const old = new Date(Date.now() - 3 * 3600_000);
    await t.app.db.updateTable("sessions").set({ created_at: old }).where("user_id", "=", owner.person.id).execute();
    const stale = await post(`${appUrl(application.id)}/owners`, { person: classmate.username }, owner.cookie);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: "auth.reauth_required" });
    expect(await invitationsOf(classmate.cookie)).toEqual([]);
    const tester = await post(`${appUrl(application.id)}/testers`, { person: classmate.username }, owner.cookie);
    expect(tester.statusCode).toBe(200);
    expect(await invitationsOf(classmate.cookie)).toMatchObject([{ role: "tester" }]);
  });

  it("forced co-owner: a withdrawn or expired invitation cannot be accepted; anyone may leave", async () => {
    const owner = await addStudent(t.app, "owner");
    const tester = await addStudent(t.app, "tester");
    const { application } = await registerApplication(t.app, owner.cookie);
    const sent = await post(`${appUrl(application.id)}/testers`, { person: tester.username }, owner.cookie);
    const [pending] = developerApplicationSchema.parse(sent.json()).invitations;
    expect(pending).toMatchObject({ role: "tester", named: tester.username });
    const withdrawn = await post(
      `${appUrl(application.id)}/invitations/withdraw`,
      { invitation: pending?.id },
      owner.cookie,
    );
    expect(developerApplicationSchema.parse(withdrawn.json()).invitations).toEqual([]);
    expect((await post(`/api/developers/invitations/${pending?.id}/accept`, {}, tester.cookie)).statusCode).toBe(404);

    await post(`${appUrl(application.id)}/testers`, { person: tester.username }, owner.cookie);
    await t.app.db
      .updateTable("application_invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect(await invitationsOf(tester.cookie)).toEqual([]);
    const [expired] = await t.app.db
      .selectFrom("application_invitations")
      .select("id")
      .where("user_id", "=", tester.person.id)
      .execute();
    const late = await post(`/api/developers/invitations/${expired?.id}/accept`, {}, tester.cookie);
    expect(late.json()).toMatchObject({ code: "developer.invitation_not_found" });
    // The background clean-up takes expired invitations away.
    expect((await cleanUpExpired(t.app.db, new Date()))?.expiredInvitations).toBeGreaterThanOrEqual(1);
    expect(
      await t.app.db
        .selectFrom("application_invitations")
        .select("id")
        .where("id", "=", expired?.id ?? "")
        .execute(),
    ).toEqual([]);

    await addMember(t.app, application.id, "tester", owner, tester);
    const testing = developerMembershipsSchema.parse((await get("/api/developers/invitations", tester.cookie)).json());
    expect(testing.testing.map((each) => each.id)).toEqual([application.id]);
    const leave = await post(`${appUrl(application.id)}/leave`, { role: "tester" }, tester.cookie);
    expect(developerMembershipsSchema.parse(leave.json()).testing).toEqual([]);
    const lastOwner = await post(`${appUrl(application.id)}/leave`, { role: "owner" }, owner.cookie);
    expect(lastOwner.json()).toMatchObject({ code: "developer.last_owner" });
    const stranger = await post(`${appUrl(application.id)}/leave`, { role: "tester" }, tester.cookie);
    expect(stranger.json()).toMatchObject({ code: "developer.application_not_found" });
  });

  /** The answer with the invitation's own id and times blanked: what an owner could compare. */
  const comparable = (body: string, named: string) =>
    developerApplicationSchema
      .parse(JSON.parse(body))
      .invitations.filter((each) => each.named === named)
      .map(({ role, named: typed }) => ({ role, typed }));

  it("lookup enumeration: the same answer for an existing, unknown, disabled or shared name, and no ids", async () => {
    const owner = await addStudent(t.app, "prober");
    const { application } = await registerApplication(t.app, owner.cookie);
    const existing = await addStudent(t.app, "real");
    const disabled = await addStudent(t.app, "gone");
    await t.app.db.updateTable("users").set({ status: "disabled" }).where("id", "=", disabled.person.id).execute();
    const twin = await addStudent(t.app, "twin");
    const twin2 = await addStudent(t.app, "twin");
    await t.app.db
      .updateTable("users")
      .set({ email: "shared@kpi.ua" })
      .where("id", "in", [twin.person.id, twin2.person.id])
      .execute();
    const targets = [
      existing.username,
      `${existing.username}@kpi.ua`,
      "nobody-here",
      "nobody@kpi.ua",
      disabled.username,
      "shared@kpi.ua",
    ];
    const answers = [];
    for (const named of targets) {
      const response = await post(`${appUrl(application.id)}/testers`, { person: named }, owner.cookie);
      answers.push({ status: response.statusCode, invitation: comparable(response.body, named) });
      for (const person of [existing, disabled, twin, twin2, owner])
        expect(response.body).not.toContain(person.person.id);
    }
    expect(answers).toEqual(targets.map((named) => ({ status: 200, invitation: [{ role: "tester", typed: named }] })));
    // Only the one real, active person hears of it; nobody else is named or told.
    expect(await invitationsOf(existing.cookie)).toHaveLength(2);
    const reached = await t.app.db.selectFrom("application_invitations").select("user_id").execute();
    expect(reached.map((row) => row.user_id)).not.toContain(disabled.person.id);
    expect(reached.map((row) => row.user_id)).not.toContain(twin.person.id);
    expect(await invitationsOf(twin.cookie)).toEqual([]);
    // Members are listed by username only, everywhere in the developers' API.
    await addMember(t.app, application.id, "tester", owner, existing);
    const detail = await get(appUrl(application.id), owner.cookie);
    expect(developerApplicationSchema.parse(detail.json()).testers).toEqual([
      { username: existing.username, you: false },
    ]);
    expect(detail.body).not.toContain(existing.person.id);
    expect(detail.body).not.toContain(owner.person.id);
    const mine = await get("/api/developers/invitations", existing.cookie);
    expect(mine.body).not.toContain(owner.person.id);
  });

  it("lookup enumeration: a declined invitation stays on the owners' list until it expires, as one to nobody does", async () => {
    const owner = await addStudent(t.app, "asker");
    const { application } = await registerApplication(t.app, owner.cookie);
    const real = await addStudent(t.app, "decliner");
    for (const named of [real.username, "nobody-at-all"]) {
      expect((await post(`${appUrl(application.id)}/testers`, { person: named }, owner.cookie)).statusCode).toBe(200);
    }
    /** The owners' view of each invitation, the name typed left out: what tells one from the other. */
    const ownersView = async () =>
      developerApplicationSchema
        .parse((await get(appUrl(application.id), owner.cookie)).json())
        .invitations.map(({ role, invitedAt, expiresAt }) => ({
          role,
          lifetime: Date.parse(expiresAt) - Date.parse(invitedAt),
        }));
    const before = await ownersView();
    expect(before).toHaveLength(2);
    expect(before[0]).toEqual(before[1]);

    const [received] = await invitationsOf(real.cookie);
    const declined = await post(`/api/developers/invitations/${received?.id}/decline`, {}, real.cookie);
    expect(declined.statusCode).toBe(200);
    // The person no longer sees it; the owners see exactly what they saw, both still waiting.
    expect(await invitationsOf(real.cookie)).toEqual([]);
    expect(await ownersView()).toEqual(before);
    const again = await post(`/api/developers/invitations/${received?.id}/accept`, {}, real.cookie);
    expect(again.json()).toMatchObject({ code: "developer.invitation_not_found" });

    // Both expire alike and leave the list together.
    await t.app.db
      .updateTable("application_invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("application_id", "=", application.id)
      .execute();
    expect(await ownersView()).toEqual([]);
  });

  it("lookup enumeration: throttled per inviter and per name with 429, never the target's sign-in or answer", async () => {
    const prober = await addStudent(t.app, "guesser");
    const { application } = await registerApplication(t.app, prober.cookie);
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const response = await post(
        `${appUrl(application.id)}/testers`,
        { person: `guess-${index}@kpi.ua` },
        prober.cookie,
      );
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json()).toMatchObject({ code: "developer.too_many_invitations" });
        expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);

    // One name from many owners: three invitations an hour, then 429 for whoever sends the fourth.
    const target = await addStudent(t.app, "popular");
    const password = "developer passphrase 1";
    const senders = await Promise.all([1, 2, 3, 4].map(() => addStudent(t.app, "sender")));
    const codes: number[] = [];
    for (const sender of senders) {
      const { application: theirs } = await registerApplication(t.app, sender.cookie);
      codes.push((await post(`${appUrl(theirs.id)}/testers`, { person: target.username }, sender.cookie)).statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
    // The target is not locked out by it: they sign in and answer an invitation as always.
    const cookie = await signIn(t.app, target.username, password);
    const [first] = await invitationsOf(cookie);
    expect((await post(`/api/developers/invitations/${first?.id}/accept`, {}, cookie)).statusCode).toBe(200);
  });

  it.runIf(kind === "postgres")("accepting while an owner invites the same name again is no deadlock", async () => {
    const owner = await addStudent(t.app, "owner");
    const tester = await addStudent(t.app, "tester");
    const { application } = await registerApplication(t.app, owner.cookie);
    await post(`${appUrl(application.id)}/testers`, { person: tester.username }, owner.cookie);
    const [invitation] = await invitationsOf(tester.cookie);
    // This transaction takes the locks as inviting again does: the application, then the invitation it renews.
    // Accepting comes between; locking the invitation first, it deadlocked with it (PostgreSQL 40P01, a 500).
    const { accepted } = await t.app.db.transaction().execute(async (invite) => {
      await invite.selectFrom("applications").select("id").where("id", "=", application.id).forUpdate().execute();
      // inject() starts when awaited: then() sends it now.
      const accepted = post(`/api/developers/invitations/${invitation?.id}/accept`, {}, tester.cookie).then(
        (answer) => answer,
      );
      await untilSomeoneWaitsForALock(t.app.db);
      await invite
        .updateTable("application_invitations")
        .set({ expires_at: new Date(Date.now() + 86_400_000) })
        .where("id", "=", invitation?.id ?? "")
        .execute();
      return { accepted };
    });
    expect((await accepted).statusCode).toBe(200);
    const testers = developerApplicationSchema.parse((await get(appUrl(application.id), owner.cookie)).json()).testers;
    expect(testers.map((person) => person.username)).toEqual([tester.username]);
  });
});
