import {
  accountActivityListSchema,
  developerApplicationSchema,
  developerApplicationsSchema,
  developerMembershipsSchema,
} from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { cleanUpExpired } from "../../src/model/housekeeping/clean-up.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addMember, addStudent, registerApplication } from "../support/developers.ts";
import { invitationsTestApp } from "../support/invitations.ts";

/**
 * Issue 56, point 3: nobody becomes a co-owner or tester without accepting (the lookup of names and addresses is in
 * attacks-developers-invitation-lookup.test.ts).
 */
describe.each(aboveModelDatabases)("attacks on developers' invitations (%s)", (kind) => {
  const { app, mail, get, post, appUrl, invitationsOf } = invitationsTestApp(kind);
  const activityOf = async (cookie: string) =>
    accountActivityListSchema
      .parse((await get("/api/account/activity", cookie)).json())
      .events.map((event) => event.type);
  const confirmAddress = (userId: string, email: string) =>
    app().db.updateTable("users").set({ verified_email: email }).where("id", "=", userId).execute();

  it("forced co-owner: an invited victim is no owner until they accept, and the inviter cannot hand it off", async () => {
    const attacker = await addStudent(app(), "attacker");
    const victim = await addStudent(app(), "victim");
    await confirmAddress(victim.person.id, `${victim.username}@kpi.ua`);
    const { application } = await registerApplication(app(), attacker.cookie, {
      title: "Електронний кампус",
      titleEn: "Campus",
      callbackUrls: ["https://evil.example/callback"],
    });
    const before = mail().inbox.messages.length;
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
    const message = await mail().inbox.waitFor((each) => each.to.includes(`${victim.username}@kpi.ua`), before);
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
    const victim = await addStudent(app(), "busy");
    await registerApplication(app(), victim.cookie);
    for (const name of ["pusher-a", "pusher-b"]) {
      const pusher = await addStudent(app(), name);
      const { application } = await registerApplication(app(), pusher.cookie);
      await post(`${appUrl(application.id)}/owners`, { person: victim.username }, pusher.cookie);
    }
    expect(await invitationsOf(victim.cookie)).toHaveLength(2);
    // Two waiting invitations do not count: their own second registration still goes through.
    await registerApplication(app(), victim.cookie);
    const [first] = await invitationsOf(victim.cookie);
    const refused = await post(`/api/developers/invitations/${first?.id}/accept`, {}, victim.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "developer.limit_reached" });
    // The invitation waits: after leaving one of their own (with a co-owner left behind), they may accept.
    const list = developerApplicationsSchema.parse((await get("/api/developers/applications", victim.cookie)).json());
    const own = list.applications[0]?.id ?? "";
    const friend = await addStudent(app(), "friend");
    await addMember(app(), own, "owner", victim, friend);
    const left = await post(`${appUrl(own)}/leave`, { role: "owner" }, victim.cookie);
    expect(left.statusCode).toBe(200);
    expect((await post(`/api/developers/invitations/${first?.id}/accept`, {}, victim.cookie)).statusCode).toBe(200);
    expect(await activityOf(victim.cookie)).toEqual(
      expect.arrayContaining(["application_invitation_accepted", "application_left"]),
    );
  });

  it("forced co-owner: inviting an owner needs a recent sign-in; a tester invitation does not", async () => {
    const owner = await addStudent(app(), "stale");
    const classmate = await addStudent(app(), "classmate");
    const { application } = await registerApplication(app(), owner.cookie);
    const old = new Date(Date.now() - 3 * 3600_000);
    await app().db.updateTable("sessions").set({ created_at: old }).where("user_id", "=", owner.person.id).execute();
    const stale = await post(`${appUrl(application.id)}/owners`, { person: classmate.username }, owner.cookie);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: "auth.reauth_required" });
    expect(await invitationsOf(classmate.cookie)).toEqual([]);
    const tester = await post(`${appUrl(application.id)}/testers`, { person: classmate.username }, owner.cookie);
    expect(tester.statusCode).toBe(200);
    expect(await invitationsOf(classmate.cookie)).toMatchObject([{ role: "tester" }]);
  });

  it("forced co-owner: a withdrawn or expired invitation cannot be accepted; anyone may leave", async () => {
    const owner = await addStudent(app(), "owner");
    const tester = await addStudent(app(), "tester");
    const { application } = await registerApplication(app(), owner.cookie);
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
    await app()
      .db.updateTable("application_invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect(await invitationsOf(tester.cookie)).toEqual([]);
    const [expired] = await app()
      .db.selectFrom("application_invitations")
      .select("id")
      .where("user_id", "=", tester.person.id)
      .execute();
    const late = await post(`/api/developers/invitations/${expired?.id}/accept`, {}, tester.cookie);
    expect(late.json()).toMatchObject({ code: "developer.invitation_not_found" });
    // The background clean-up takes expired invitations away.
    expect((await cleanUpExpired(app().db, new Date()))?.expiredInvitations).toBeGreaterThanOrEqual(1);
    expect(
      await app()
        .db.selectFrom("application_invitations")
        .select("id")
        .where("id", "=", expired?.id ?? "")
        .execute(),
    ).toEqual([]);

    await addMember(app(), application.id, "tester", owner, tester);
    const testing = developerMembershipsSchema.parse((await get("/api/developers/invitations", tester.cookie)).json());
    expect(testing.testing.map((each) => each.id)).toEqual([application.id]);
    const leave = await post(`${appUrl(application.id)}/leave`, { role: "tester" }, tester.cookie);
    expect(developerMembershipsSchema.parse(leave.json()).testing).toEqual([]);
    const lastOwner = await post(`${appUrl(application.id)}/leave`, { role: "owner" }, owner.cookie);
    expect(lastOwner.json()).toMatchObject({ code: "developer.last_owner" });
    const stranger = await post(`${appUrl(application.id)}/leave`, { role: "tester" }, tester.cookie);
    expect(stranger.json()).toMatchObject({ code: "developer.application_not_found" });
  });
});
