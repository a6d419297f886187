import { developerApplicationSchema } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { signIn } from "../support/campus.ts";
import { databaseKinds } from "../support/databases.ts";
import { addMember, addStudent, registerApplication } from "../support/developers.ts";
import { invitationsTestApp } from "../support/invitations.ts";
import { untilSomeoneWaitsForALock } from "../support/lock-waits.ts";

/**
 * Issue 56, point 4: inviting tells nobody whether a name or address has an account (who accepts what is in
 * attacks-developers-invitations.test.ts).
 */
describe.each(databaseKinds)("attacks on developers' invitation lookup (%s)", (kind) => {
  const { app, get, post, appUrl, invitationsOf } = invitationsTestApp(kind);

  /** The answer with the invitation's own id and times blanked: what an owner could compare. */
  const comparable = (body: string, named: string) =>
    developerApplicationSchema
      .parse(JSON.parse(body))
      .invitations.filter((each) => each.named === named)
      .map(({ role, named: typed }) => ({ role, typed }));

  it("lookup enumeration: the same answer for an existing, unknown, disabled or shared name, and no ids", async () => {
    const owner = await addStudent(app(), "prober");
    const { application } = await registerApplication(app(), owner.cookie);
    const existing = await addStudent(app(), "real");
    const disabled = await addStudent(app(), "gone");
    await app().db.updateTable("users").set({ status: "disabled" }).where("id", "=", disabled.person.id).execute();
    const twin = await addStudent(app(), "twin");
    const twin2 = await addStudent(app(), "twin");
    await app()
      .db.updateTable("users")
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
    const reached = await app().db.selectFrom("application_invitations").select("user_id").execute();
    expect(reached.map((row) => row.user_id)).not.toContain(disabled.person.id);
    expect(reached.map((row) => row.user_id)).not.toContain(twin.person.id);
    expect(await invitationsOf(twin.cookie)).toEqual([]);
    // Members are listed by username only, everywhere in the developers' API.
    await addMember(app(), application.id, "tester", owner, existing);
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
    const owner = await addStudent(app(), "asker");
    const { application } = await registerApplication(app(), owner.cookie);
    const real = await addStudent(app(), "decliner");
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
    await app()
      .db.updateTable("application_invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("application_id", "=", application.id)
      .execute();
    expect(await ownersView()).toEqual([]);
  });

  it("lookup enumeration: throttled per inviter and per name with 429, never the target's sign-in or answer", async () => {
    const prober = await addStudent(app(), "guesser");
    const { application } = await registerApplication(app(), prober.cookie);
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
    const target = await addStudent(app(), "popular");
    const password = "developer passphrase 1";
    const senders = await Promise.all([1, 2, 3, 4].map(() => addStudent(app(), "sender")));
    const codes: number[] = [];
    for (const sender of senders) {
      const { application: theirs } = await registerApplication(app(), sender.cookie);
      codes.push((await post(`${appUrl(theirs.id)}/testers`, { person: target.username }, sender.cookie)).statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
    // The target is not locked out by it: they sign in and answer an invitation as always.
    const cookie = await signIn(app(), target.username, password);
    const [first] = await invitationsOf(cookie);
    expect((await post(`/api/developers/invitations/${first?.id}/accept`, {}, cookie)).statusCode).toBe(200);
  });

  // Registered on PostgreSQL only: PGlite runs one transaction at a time, so the two cannot interleave there.
  if (kind === "postgres") {
    it("accepting while an owner invites the same name again is no deadlock", async () => {
      const owner = await addStudent(app(), "owner");
      const tester = await addStudent(app(), "tester");
      const { application } = await registerApplication(app(), owner.cookie);
      await post(`${appUrl(application.id)}/testers`, { person: tester.username }, owner.cookie);
      const [invitation] = await invitationsOf(tester.cookie);
      // This transaction takes the locks as inviting again does: the application, then the invitation it renews.
      // Accepting comes between; locking the invitation first, it deadlocked with it (PostgreSQL 40P01, a 500).
      const { accepted } = await app()
        .db.transaction()
        .execute(async (invite) => {
          await invite.selectFrom("applications").select("id").where("id", "=", application.id).forUpdate().execute();
          // inject() starts when awaited: then() sends it now.
          const accepted = post(`/api/developers/invitations/${invitation?.id}/accept`, {}, tester.cookie).then(
            (answer) => answer,
          );
          await untilSomeoneWaitsForALock(app().db);
          await invite
            .updateTable("application_invitations")
            .set({ expires_at: new Date(Date.now() + 86_400_000) })
            .where("id", "=", invitation?.id ?? "")
            .execute();
          return { accepted };
        });
      expect((await accepted).statusCode).toBe(200);
      const testers = developerApplicationSchema.parse(
        (await get(appUrl(application.id), owner.cookie)).json(),
      ).testers;
      expect(testers.map((person) => person.username)).toEqual([tester.username]);
    });
  }
});
