import type { BankIdErrorReason } from "@kpi-id/contracts";

type Language = "uk" | "en";

/** What the login page's BankID alert says first (its title), per reason, as a person reads it (the login
 * screen's test words each reason with it, and the browser walks look for it). */
export const bankIdRefusalTitles: Record<Language, Record<BankIdErrorReason, string>> = {
  uk: {
    cancelled: "Вхід через BankID скасовано",
    no_account: "Університет не знає людини з даними від вашого банку",
    not_identified: "Банк не передав даних, за якими вас можна знайти",
    account_disabled: "Ваш обліковий запис KPI ID вимкнено",
    expired: "Вхід через BankID тривав задовго",
    invalid_answer: "Відповіді банку не можна довіряти",
    unavailable: "BankID або ваш банк тимчасово недоступні",
    too_many_attempts: "Забагато спроб входу",
    busy: "Зараз забагато людей входять через BankID",
    identity_linked: "Ваша державна особа вже має обліковий запис KPI ID",
    failed: "Вхід через BankID не завершився",
  },
  en: {
    cancelled: "BankID sign-in was cancelled",
    no_account: "The university has no one with the details your bank sent",
    not_identified: "Your bank sent nothing KPI ID can find you by",
    account_disabled: "Your KPI ID account is disabled",
    expired: "The BankID sign-in took too long",
    invalid_answer: "Your bank's answer could not be trusted",
    unavailable: "BankID or your bank is briefly unavailable",
    too_many_attempts: "Too many sign-in attempts",
    busy: "Too many people are signing in with BankID right now",
    identity_linked: "Your state identity is already someone's KPI ID account",
    failed: "BankID sign-in did not complete",
  },
};
