import type { Language } from "@kpi-id/contracts";
import type { MessageContent } from "./messages.ts";

/** Facts about where something happened, as the person would recognise them. */
export interface Occurrence {
  /** "3 березня 2026 р., 09:00 UTC": formatted for the person's language. */
  when: string;
  /** "Firefox 128, Android 14"; empty when the browser did not say. */
  device: string;
  address: string;
}

const where = (occurrence: Occurrence, language: Language) => {
  const device = occurrence.device || (language === "uk" ? "невідомий пристрій" : "an unknown device");
  return language === "uk"
    ? `Коли: ${occurrence.when}. Пристрій: ${device}. Адреса: ${occurrence.address}.`
    : `When: ${occurrence.when}. Device: ${device}. Address: ${occurrence.address}.`;
};

const notYou: Record<Language, (support: string) => string> = {
  uk: (support) =>
    `Якщо це були не ви, негайно відновіть пароль («Забули пароль?» на сторінці входу) і напишіть на ${support}.`,
  en: (support) =>
    `If this was not you, reset your password at once ("Forgot password?" on the sign-in page) and write to ${support}.`,
};

export function resetLinkNotice(language: Language, url: string, minutes: number): MessageContent {
  return language === "uk"
    ? {
        subject: "Відновлення пароля KPI ID",
        paragraphs: [
          "Хтось (сподіваємося, ви) попросив відновити пароль до вашого облікового запису KPI ID.",
          `Посилання діє ${minutes} хвилин і спрацює один раз. Нове посилання скасовує це.`,
          "Якщо ви не просили відновлення, просто проігноруйте цей лист: пароль не зміниться.",
        ],
        action: { label: "Задати новий пароль", url },
      }
    : {
        subject: "Reset your KPI ID password",
        paragraphs: [
          "Someone (we hope you) asked to reset the password of your KPI ID account.",
          `The link works for ${minutes} minutes and only once. A newer link cancels this one.`,
          "If you did not ask for this, ignore this message: your password stays as it is.",
        ],
        action: { label: "Set a new password", url },
      };
}

export function passwordChangedNotice(language: Language, occurrence: Occurrence, support: string): MessageContent {
  return language === "uk"
    ? {
        subject: "Пароль KPI ID змінено",
        paragraphs: [
          "Пароль вашого облікового запису KPI ID щойно змінено. Усі інші сеанси завершено.",
          where(occurrence, language),
          notYou.uk(support),
        ],
      }
    : {
        subject: "Your KPI ID password was changed",
        paragraphs: [
          "The password of your KPI ID account was just changed. Every other session was ended.",
          where(occurrence, language),
          notYou.en(support),
        ],
      };
}

export function newDeviceNotice(language: Language, occurrence: Occurrence, support: string): MessageContent {
  return language === "uk"
    ? {
        subject: "Новий вхід до KPI ID",
        paragraphs: [
          "До вашого облікового запису KPI ID увійшли з пристрою, якого ми раніше не бачили.",
          where(occurrence, language),
          notYou.uk(support),
        ],
      }
    : {
        subject: "New sign-in to KPI ID",
        paragraphs: [
          "Someone signed in to your KPI ID account from a device we have not seen before.",
          where(occurrence, language),
          notYou.en(support),
        ],
      };
}

/** Ways in, and the second factor (an authenticator app) whose change is as sensitive as theirs. */
export type SignInMethodName = "PASSWORD" | "GOOGLE" | "DIIA" | "BANK_ID" | "PASSKEY" | "AUTHENTICATOR";
export type MethodChange = "added" | "removed";

const methodNames: Record<Language, Record<SignInMethodName, string>> = {
  uk: {
    PASSWORD: "пароль",
    GOOGLE: "Google",
    DIIA: "Дія",
    BANK_ID: "BankID НБУ",
    PASSKEY: "ключ доступу",
    AUTHENTICATOR: "застосунок-автентифікатор (другий фактор)",
  },
  en: {
    PASSWORD: "password",
    GOOGLE: "Google",
    DIIA: "Diia",
    BANK_ID: "BankID NBU",
    PASSKEY: "passkey",
    AUTHENTICATOR: "authenticator app (second factor)",
  },
};

export function methodChangedNotice(
  language: Language,
  method: SignInMethodName,
  change: MethodChange,
  occurrence: Occurrence,
  support: string,
): MessageContent {
  const name = methodNames[language][method];
  if (language === "uk") {
    const done = change === "added" ? "додано" : "вилучено";
    return {
      subject: `Спосіб входу ${done}: ${name}`,
      paragraphs: [
        `До вашого облікового запису KPI ID ${done} спосіб входу: ${name}.`,
        where(occurrence, language),
        notYou.uk(support),
      ],
    };
  }
  return {
    subject: `Sign-in method ${change}: ${name}`,
    paragraphs: [
      `A sign-in method was ${change} ${change === "added" ? "to" : "from"} your KPI ID account: ${name}.`,
      where(occurrence, language),
      notYou.en(support),
    ],
  };
}
