import type { Language } from "@kpi-id/contracts";
import type { ApplicationRow, User } from "../../platform/db/schema.ts";
import type { OutgoingMail } from "../../platform/mail/mailer.ts";
import { type MessageContent, renderMessage } from "../../platform/mail/messages.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import type { ApplicationRole } from "./people.ts";

const roleWords: Record<Language, Record<ApplicationRole, string>> = {
  uk: { owner: "співвласником", tester: "тестувальником" },
  en: { owner: "a co-owner", tester: "a tester" },
};

const dateFormat: Record<Language, string> = { uk: "uk-UA", en: "en-GB" };

interface InvitationFacts {
  role: ApplicationRole;
  application: Pick<ApplicationRow, "title" | "title_en">;
  inviter: string;
  expiresAt: Date;
}

/** "X invites you to be a co-owner of Y": what it means, until when, and where to answer. */
export function invitationNotice(language: Language, facts: InvitationFacts, publicUrl: string): MessageContent {
  const { role, application, inviter } = facts;
  const title = language === "en" && application.title_en ? application.title_en : application.title;
  const until = new Intl.DateTimeFormat(dateFormat[language], { dateStyle: "long", timeZone: "Europe/Kyiv" }).format(
    facts.expiresAt,
  );
  const url = `${publicUrl}/${language}/developers`;
  if (language === "uk") {
    return {
      subject: `Запрошення до застосунку «${title}»`,
      paragraphs: [
        `${inviter} запрошує вас стати ${roleWords.uk[role]} застосунку «${title}» у KPI ID.`,
        role === "owner"
          ? "Співвласник керує налаштуваннями, секретом і людьми застосунку та відповідає за нього."
          : "Тестувальник може входити в застосунок, поки він у тестуванні.",
        `Прийміть або відхиліть запрошення на своїй сторінці розробника до ${until}. Доки ви не приймете, нічого не змінюється. Якщо ви не знаєте ${inviter}, відхиліть його.`,
      ],
      action: { label: "Відкрити сторінку розробника", url },
    };
  }
  return {
    subject: `Invitation to the application “${title}”`,
    paragraphs: [
      `${inviter} invites you to be ${roleWords.en[role]} of the application “${title}” on KPI ID.`,
      role === "owner"
        ? "A co-owner manages the application's settings, secret and people, and answers for it."
        : "A tester may sign in to the application while it is in testing.",
      `Accept or decline the invitation on your developers' page by ${until}. Nothing changes until you accept. If you do not know ${inviter}, decline it.`,
    ],
    action: { label: "Open the developers' page", url },
  };
}

/** Mails the invitee, only at a confirmed address, in the language of their last sign-in. */
export function mailInvitation(
  send: (mail: OutgoingMail) => void,
  publicUrl: string,
  invitee: Pick<User, "email" | "verified_email" | "language">,
  facts: InvitationFacts,
): void {
  const to = verifiedAddressOf(invitee);
  if (!to) return;
  const language = invitee.language ?? "uk";
  send({ to, ...renderMessage(invitationNotice(language, facts, publicUrl), language) });
}
