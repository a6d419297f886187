import { demoUsers, expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ApplicationPeople, InvitationNotice } from "../pages/developers-invitations-page.ts";
import { DevelopersPage } from "../pages/developers-page.ts";
import { MailInboxPage } from "../pages/mail-inbox-page.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { photograph } from "../tools/photographs.ts";
import { personBrowser } from "../tools/walk.ts";

/**
 * The owner: a demo person whose apps list no other spec counts (an application in testing is on its owners' and
 * testers' apps lists). The classmate invited as tester has a confirmed address, so the invitation is mailed.
 */
const owner = { username: "both", password: "both-demo-2026" } as const;
const classmate = { username: "employee", password: "employee-demo-2026", email: "andrii.melnyk@kpi.ua" } as const;
const newcomerEmail = "maksym.bondar@lll.kpi.ua";
for (const language of ["uk", "en"] as const) {
  test.describe(`developers' invitations (${language})`, () => {
    test("an owner invites a classmate as tester and another as co-owner; the mail and the notice reach them; one accepts and is listed, the other declines", async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(240_000);
      const stamp = Date.now().toString(36);
      const title = `Розклад ${language} ${stamp}`;
      const titleEn = `Timetable ${language} ${stamp}`;
      const shown = language === "en" ? titleEn : title;
      const opened: { close: () => Promise<unknown> }[] = [];
      try {
        // The classmate signs in first in this language, so their mail is written in it.
        const invitee = await personBrowser(browser, language, classmate);
        opened.push(invitee.context);
        const declining = await personBrowser(browser, language, demoUsers.newcomer);
        opened.push(declining.context);

        await signInThroughApi(page, language, owner);
        const developers = new DevelopersPage(page, language);
        await developers.goto();
        await developers.startNew();
        await developers.fill({
          title,
          titleEn,
          description: "Розклад занять групи",
          descriptionEn: "A group's timetable",
          homePageUrl: "https://timetable.example.org",
          privacyPolicyUrl: "https://timetable.example.org/privacy",
          redirectUris: ["https://timetable.example.org/oidc/callback"],
        });
        await developers.register();
        await developers.open(shown);

        // A co-owner needs a recent sign-in (the owner's is seconds old); both are invitations, nobody is added.
        const people = new ApplicationPeople(page, language);
        const mailbox = new MailInboxPage(invitee.page);
        const before = await mailbox.count();
        // The co-owner by e-mail address, the tester by username: both ways of naming a person. (developers.spec.ts
        // invites the newcomer's username too, and one name takes three invitations an hour.)
        await people.invite("owner", newcomerEmail);
        await people.invite("tester", classmate.username);
        await expect(people.members("owner")).toHaveText(new RegExp(owner.username));
        await expect(people.members("owner")).not.toContainText(demoUsers.newcomer.username);
        await expectNoAxeViolations(page, "the people sections with invitations waiting");
        await photograph(page, testInfo, `people-pending-${language}`, { part: people.section("tester") });

        // The classmate reads the invitation in the sandbox's mail inbox, then answers it on their developers' page.
        const notice = new InvitationNotice(invitee.page, language);
        const message = await mailbox.open(classmate.email, notice.mailSubject(shown), before);
        expect(message).toContain(owner.username);
        expect(message).toContain(`/${language}/developers`);
        await notice.goto();
        await expect(notice.invitation("tester", shown)).toBeVisible();
        await expectNoAxeViolations(invitee.page, "the invitation notice");
        await photograph(invitee.page, testInfo, `invitation-notice-${language}`, { part: notice.notice });
        await notice.answer("tester", shown, "accept");
        await expect(notice.testing).toContainText(shown);

        // The other declines the co-ownership: nothing changes for them.
        const declined = new InvitationNotice(declining.page, language);
        await declined.goto();
        await declined.answer("owner", shown, "decline");
        await declining.page.goto(`/${language}/developers`);
        await expect(declining.page.getByTestId("developer-application-link").filter({ hasText: shown })).toHaveCount(
          0,
        );

        // The owner sees the classmate among the testers. The declined co-ownership still waits until it expires, as
        // an invitation to a name nobody holds would: declining must not tell the owner the name exists.
        await page.reload();
        await expect(people.members("tester")).toContainText(classmate.username);
        await expect(people.pending("tester")).toHaveCount(0);
        await expect(people.pending("owner")).toHaveCount(1);
        await expect(people.members("owner")).not.toContainText(demoUsers.newcomer.username);
        await expectNoAxeViolations(page, "the people sections after the answers");
        await photograph(page, testInfo, `people-accepted-${language}`, { part: people.section("tester") });

        // The tester may leave (and so the demo employee's apps list is as the other specs expect it).
        await notice.goto();
        await notice.leave(shown);
      } finally {
        for (const each of opened) await each.close();
      }
    });
  });
}
