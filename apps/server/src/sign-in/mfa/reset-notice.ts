import type { Language } from "@kpi-id/contracts";
import type { MessageContent } from "../../platform/mail/messages.ts";

/** "Your second factor was reset by support": the person sets it up again, or asks why. */
export function secondFactorResetNotice(language: Language, support: string): MessageContent {
  return language === "uk"
    ? {
        subject: "Другий фактор KPI ID скинуто",
        paragraphs: [
          "Служба підтримки KPI ID скинула другий фактор вашого облікового запису: застосунок-автентифікатор і резервні коди більше не діють, а браузери, які ви просили запам'ятати, знову спитають код.",
          "Налаштуйте другий фактор знову на сторінці «Обліковий запис».",
          `Якщо ви про це не просили, негайно напишіть на ${support}.`,
        ],
      }
    : {
        subject: "Your KPI ID second factor was reset",
        paragraphs: [
          "KPI ID support reset the second factor of your account: your authenticator app and recovery codes no longer work, and browsers you asked to remember will ask for a code again.",
          "Set up a second factor again on the Account page.",
          `If you did not ask for this, write to ${support} at once.`,
        ],
      };
}
