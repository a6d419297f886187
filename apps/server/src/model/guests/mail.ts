import type { Language } from "@kpi-id/contracts";
import type { OutgoingMail } from "../../platform/mail/mailer.ts";
import { type MessageContent, renderMessage } from "../../platform/mail/messages.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import type { Addressee } from "./lifecycle.ts";

const dateFormat: Record<Language, string> = { uk: "uk-UA", en: "en-GB" };

/** The guest's last day, as people read it (the end is the first moment after it, in Kyiv). */
function lastDay(language: Language, endsAt: Date): string {
  return new Intl.DateTimeFormat(dateFormat[language], { dateStyle: "long", timeZone: "Europe/Kyiv" }).format(
    new Date(endsAt.getTime() - 1000),
  );
}

export interface InvitationFacts {
  sponsor: string;
  endsAt: Date;
  link: string;
  linkExpiresAt: Date;
}

/** "X invites you to KPI ID as a guest": who, until when, and the one-time link. */
export function guestInvitationNotice(language: Language, facts: InvitationFacts): MessageContent {
  const until = lastDay(language, facts.endsAt);
  const linkUntil = lastDay(language, facts.linkExpiresAt);
  if (language === "uk") {
    return {
      subject: "Запрошення до KPI ID",
      paragraphs: [
        `${facts.sponsor} запрошує вас до KPI ID, єдиного входу КПІ ім. Ігоря Сікорського, як гостя до ${until} включно.`,
        `Відкрийте посилання до ${linkUntil}, вкажіть цю адресу, задайте пароль і налаштуйте другий фактор. Посилання працює один раз і лише для цієї адреси.`,
        `Якщо ви не знаєте ${facts.sponsor}, не відкривайте його.`,
      ],
      action: { label: "Прийняти запрошення", url: facts.link },
    };
  }
  return {
    subject: "Invitation to KPI ID",
    paragraphs: [
      `${facts.sponsor} invites you to KPI ID, the single sign-on of Igor Sikorsky Kyiv Polytechnic Institute, as a guest until ${until} inclusive.`,
      `Open the link by ${linkUntil}, give this address, choose a password and set up a second factor. The link works once, and only for this address.`,
      `If you do not know ${facts.sponsor}, do not open it.`,
    ],
    action: { label: "Accept the invitation", url: facts.link },
  };
}

export function guestInvitationMail(to: string, language: Language, facts: InvitationFacts): OutgoingMail {
  return { to, ...renderMessage(guestInvitationNotice(language, facts), language) };
}

export interface ReminderFacts {
  guest: string;
  endsAt: Date;
  days: number;
  accountUrl: string;
}

/** To the guest: the account ends on that day; the sponsor may extend it. */
export function guestEndingNotice(language: Language, facts: ReminderFacts): MessageContent {
  const until = lastDay(language, facts.endsAt);
  if (language === "uk") {
    return {
      subject: `Гостьовий обліковий запис KPI ID діє до ${until}`,
      paragraphs: [
        `Ваш гостьовий обліковий запис KPI ID діє до ${until} включно; після цього вхід, Wi-Fi і застосунки буде вимкнено.`,
        "Якщо вам потрібно більше часу, попросіть того, хто вас запросив, продовжити його.",
      ],
    };
  }
  return {
    subject: `Your KPI ID guest account lasts until ${until}`,
    paragraphs: [
      `Your KPI ID guest account lasts until ${until} inclusive; after it, sign-in, Wi-Fi and applications stop.`,
      "If you need longer, ask the person who invited you to extend it.",
    ],
  };
}

/** To the sponsor: their guest ends on that day; one click on the account page extends it. */
export function sponsorEndingNotice(language: Language, facts: ReminderFacts): MessageContent {
  const until = lastDay(language, facts.endsAt);
  if (language === "uk") {
    return {
      subject: `Перебування гостя ${facts.guest} закінчується ${until}`,
      paragraphs: [
        `Гостьовий обліковий запис ${facts.guest}, якого запросили ви, діє до ${until} включно.`,
        "Якщо гостю потрібно більше часу, продовжте його на сторінці облікового запису; інакше нічого робити не треба.",
      ],
      action: { label: "Мої гості", url: facts.accountUrl },
    };
  }
  return {
    subject: `Your guest ${facts.guest} ends on ${until}`,
    paragraphs: [
      `The guest account of ${facts.guest}, whom you sponsor, lasts until ${until} inclusive.`,
      "If your guest needs longer, extend it on your account page; otherwise there is nothing to do.",
    ],
    action: { label: "My guests", url: facts.accountUrl },
  };
}

/** To the operators: a sponsor left, their guests are the operators' now. */
export function handedOverNotice(
  language: Language,
  sponsor: string,
  count: number,
  consoleUrl: string,
): MessageContent {
  const who = sponsor || (language === "uk" ? "Спонсор" : "A sponsor");
  if (language === "uk") {
    return {
      subject: "Гостей передано операторам",
      paragraphs: [
        `${who} більше не працює в університеті; їхні гості (${count}) тепер за вами.`,
        "Перегляньте їх у консолі: кожен завершиться у свій день, якщо оператор не вимкне його раніше.",
      ],
      action: { label: "Гості в консолі", url: consoleUrl },
    };
  }
  return {
    subject: "Guests handed to the operators",
    paragraphs: [
      `${who} no longer works at the university; their guests (${count}) are yours now.`,
      "Look at them in the console: each ends on their day unless an operator disables them sooner.",
    ],
    action: { label: "Guests in the console", url: consoleUrl },
  };
}

/** The message, addressed to the person's confirmed address in their language; undefined without one. */
export function addressed(
  person: Addressee,
  content: (language: Language) => MessageContent,
): OutgoingMail | undefined {
  const to = verifiedAddressOf(person);
  if (!to) return undefined;
  const language = person.language ?? "uk";
  return { to, ...renderMessage(content(language), language) };
}
