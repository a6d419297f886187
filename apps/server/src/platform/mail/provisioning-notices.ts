import type { Language } from "@kpi-id/contracts";
import type { MessageContent } from "./messages.ts";

/** What the person is told of a password their organisation's account system pushed over SCIM. */
export interface PushedPasswordFacts {
  /** The person's KPI ID username, so they know which account. */
  username: string;
  /** The SCIM client's token name as the operator named it ("okta"). */
  client: string;
  /** Whether it replaced a password (which no longer works, and the person's sessions ended). */
  replaced: boolean;
  /** "27 листопада 2026 р. о 12:00:00 за київським часом", in the person's language. */
  when: string;
}

/**
 * "A password was set for your account": never the password itself. The time only: the device and address of the
 * request are the account system's, which the person would not recognise as theirs.
 */
export function pushedPasswordNotice(language: Language, facts: PushedPasswordFacts, support: string): MessageContent {
  const { username, client, replaced, when } = facts;
  return language === "uk"
    ? {
        subject: "Для облікового запису KPI ID задано пароль",
        paragraphs: [
          `Система облікових записів університету (${client}) задала пароль для вашого облікового запису KPI ID ` +
            `(логін ${username}).` +
            (replaced ? " Попередній пароль більше не діє, усі ваші сеанси завершено." : ""),
          `Коли: ${when}. Самого пароля в цьому листі немає і не буде.`,
          "Якщо ви щойно задали чи змінили пароль на порталі входу університету, нічого робити не треба.",
          `Якщо ви цього не очікували, не входьте з паролем, який вам хтось передав, і негайно напишіть на ${support}.`,
        ],
      }
    : {
        subject: "A password was set for your KPI ID account",
        paragraphs: [
          `The university's account system (${client}) set a password for your KPI ID account (username ` +
            `${username}).` +
            (replaced ? " The previous password no longer works, and every session of yours was ended." : ""),
          `When: ${when}. This message does not and never will hold the password itself.`,
          "If you just set or changed your password on the university's sign-in portal, there is nothing to do.",
          `If you did not expect this, do not sign in with a password someone passed on to you, and write to ${support} at once.`,
        ],
      };
}
