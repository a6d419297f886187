import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    named: "Ім'я користувача або адреса е-пошти",
    inviteTester: "Запросити тестувальника",
    inviteOwner: "Запросити співвласника",
    invitedNote: "ця людина отримає запрошення",
    accept: "Прийняти",
    decline: "Відхилити",
    leave: "Вийти",
    noticeTitle: "Вас запрошено до застосунку",
    tester: (title: string) => `Стати тестувальником «${title}»`,
    owner: (title: string) => `Стати співвласником «${title}»`,
    mailSubject: (title: string) => `Запрошення до застосунку «${title}»`,
  },
  en: {
    named: "Username or e-mail address",
    inviteTester: "Invite a tester",
    inviteOwner: "Invite a co-owner",
    invitedNote: "they get an invitation",
    accept: "Accept",
    decline: "Decline",
    leave: "Leave",
    noticeTitle: "You are invited to an application",
    tester: (title: string) => `Become a tester of “${title}”`,
    owner: (title: string) => `Become a co-owner of “${title}”`,
    mailSubject: (title: string) => `Invitation to the application “${title}”`,
  },
} as const;

export type InvitedRole = "tester" | "owner";

/** The owners' side on /{lang}/developers/{id}: the testers' and owners' sections, invitations waiting in them. */
export class ApplicationPeople {
  readonly page: Page;
  readonly text: (typeof labels)[Language];

  constructor(page: Page, language: Language) {
    this.page = page;
    this.text = labels[language];
  }

  section(role: InvitedRole): Locator {
    return this.page.getByTestId(role === "tester" ? "developer-testers" : "developer-owners");
  }

  pending(role: InvitedRole): Locator {
    return this.page.getByTestId(role === "tester" ? "testers-pending" : "owners-pending");
  }

  /** Invites by username or address; the page says the same whoever it is, and lists the invitation as waiting. */
  async invite(role: InvitedRole, person: string): Promise<void> {
    const section = this.section(role);
    await section.getByLabel(this.text.named).fill(person);
    await section
      .getByRole("button", { name: role === "tester" ? this.text.inviteTester : this.text.inviteOwner })
      .click();
    await expect(section.getByRole("status")).toContainText(this.text.invitedNote);
    await expect(this.pending(role)).toContainText(person);
  }

  /** The usernames of those who accepted, in the section's list. */
  members(role: InvitedRole): Locator {
    return this.section(role).getByRole("list").first();
  }
}

/** The invited person's side on /{lang}/developers: the invitation notice and the applications they test. */
export class InvitationNotice {
  readonly page: Page;
  readonly language: Language;
  readonly text: (typeof labels)[Language];
  readonly notice: Locator;
  readonly testing: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.text = labels[language];
    this.notice = page.getByTestId("invitations-notice");
    this.testing = page.getByTestId("testing-list");
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.language}/developers`);
    await expect(this.page.getByTestId("developers-screen")).toBeVisible();
  }

  invitation(role: InvitedRole, title: string): Locator {
    const name = role === "tester" ? this.text.tester(title) : this.text.owner(title);
    return this.notice.getByTestId("invitation").filter({ hasText: name });
  }

  async answer(role: InvitedRole, title: string, answer: "accept" | "decline"): Promise<void> {
    const invitation = this.invitation(role, title);
    await invitation.getByRole("button", { name: answer === "accept" ? this.text.accept : this.text.decline }).click();
    await expect(invitation).toHaveCount(0);
  }

  /** Leaves an application they test, from the list of those. */
  async leave(title: string): Promise<void> {
    const row = this.testing.getByRole("listitem").filter({ hasText: title });
    await row.getByRole("button", { name: this.text.leave }).click();
    await expect(row).toHaveCount(0);
  }

  mailSubject(title: string): string {
    return this.text.mailSubject(title);
  }
}
