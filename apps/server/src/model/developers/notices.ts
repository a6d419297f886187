import type { Language } from "@kpi-id/contracts";
import type { Unit } from "../../platform/db/people-schema.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";
import { type BackgroundMail, sendInBackground } from "../../platform/mail/mailer.ts";
import { type MessageContent, renderMessage } from "../../platform/mail/messages.ts";
import { verifiedAddressOf } from "../../platform/mail/verified-address.ts";
import { mailContactsOf } from "../users/queries.ts";

/**
 * What an operator decided about an application, told to its owners by e-mail; `unit_approved` and
 * `change_unit_approved` are a unit admin's first approval, which waits for central IT (issue 79).
 */
export type OwnerNotice =
  | "approved"
  | "rejected"
  | "suspended"
  | "unsuspended"
  | "change_approved"
  | "change_rejected"
  | "unit_approved"
  | "change_unit_approved";

/** The unit a first approval came from, named in the owner's language. */
export type ApprovingUnit = Pick<Unit, "code" | "name_uk" | "name_en">;

const subjects: Record<OwnerNotice, Record<Language, string>> = {
  approved: { uk: "Застосунок схвалено", en: "Your application is approved" },
  rejected: { uk: "Застосунок не схвалено", en: "Your application was not approved" },
  suspended: { uk: "Застосунок призупинено", en: "Your application is suspended" },
  unsuspended: { uk: "Застосунок знову працює", en: "Your application works again" },
  change_approved: { uk: "Зміну застосунку схвалено", en: "Your application's change is approved" },
  change_rejected: { uk: "Зміну застосунку не схвалено", en: "Your application's change was not approved" },
  unit_approved: { uk: "Застосунок схвалено підрозділом", en: "Your application is approved by its unit" },
  change_unit_approved: {
    uk: "Зміну застосунку схвалено підрозділом",
    en: "Your application's change is approved by its unit",
  },
};

// `unit` is the approving unit's code and name, for the first approvals; the other notices have none.
const bodies: Record<OwnerNotice, Record<Language, (title: string, unit: string) => string>> = {
  approved: {
    uk: (title) =>
      `Адміністратори KPI ID схвалили «${title}»: тепер у нього можуть увійти всі, кому дозволяють правила доступу.`,
    en: (title) => `KPI ID's operators approved “${title}”: everyone the access rules allow can now sign in to it.`,
  },
  rejected: {
    uk: (title) => `Адміністратори KPI ID не схвалили «${title}». Він і далі працює для власників і тестувальників.`,
    en: (title) => `KPI ID's operators did not approve “${title}”. It still works for its owners and testers.`,
  },
  suspended: {
    uk: (title) => `Адміністратори KPI ID призупинили «${title}»: увійти в нього зараз не може ніхто.`,
    en: (title) => `KPI ID's operators suspended “${title}”: nobody can sign in to it now.`,
  },
  unsuspended: {
    uk: (title) => `Адміністратори KPI ID відновили «${title}»: входи в нього знову працюють.`,
    en: (title) => `KPI ID's operators resumed “${title}”: sign-ins to it work again.`,
  },
  change_approved: {
    uk: (title) => `Адміністратори KPI ID схвалили зміну «${title}»: тепер працює нова версія.`,
    en: (title) => `KPI ID's operators approved the change to “${title}”: the new version is what runs now.`,
  },
  change_rejected: {
    uk: (title) => `Адміністратори KPI ID не схвалили зміну «${title}». Застосунок і далі працює як раніше.`,
    en: (title) => `KPI ID's operators did not approve the change to “${title}”. The application works as before.`,
  },
  unit_approved: {
    uk: (title, unit) =>
      `Адміністратор підрозділу ${unit} схвалив «${title}». Тепер його розгляне центральна ІТ-служба KPI ID; ` +
      "коли вона вирішить, ви отримаєте лист. Доти він працює лише для власників і тестувальників.",
    en: (title, unit) =>
      `The admin of unit ${unit} approved “${title}”. It now waits for KPI ID's central IT, and you will get an ` +
      "e-mail when they decide. Until then it works for its owners and testers alone.",
  },
  change_unit_approved: {
    uk: (title, unit) =>
      `Адміністратор підрозділу ${unit} схвалив зміну «${title}». Тепер її розгляне центральна ІТ-служба KPI ID; ` +
      "доти застосунок працює як раніше.",
    en: (title, unit) =>
      `The admin of unit ${unit} approved the change to “${title}”. It now waits for KPI ID's central IT; until ` +
      "they approve it, the application works as before.",
  },
};

/** The message in one language; the reason is the operator's own words, quoted. */
export function ownerNotice(
  notice: OwnerNotice,
  language: Language,
  application: Pick<ApplicationRow, "id" | "title" | "title_en">,
  reason: string,
  publicUrl: string,
  unit?: ApprovingUnit,
): MessageContent {
  const title = language === "en" && application.title_en ? application.title_en : application.title;
  const because = reason ? [language === "uk" ? `Причина: ${reason}` : `Reason: ${reason}`] : [];
  const unitName = unit ? `${unit.code} (${language === "en" && unit.name_en ? unit.name_en : unit.name_uk})` : "";
  return {
    subject: `${subjects[notice][language]}: ${title}`,
    paragraphs: [bodies[notice][language](title, unitName), ...because],
    action: {
      label: language === "uk" ? "Відкрити сторінку розробника" : "Open the developers' page",
      url: `${publicUrl}/${language}/developers/${application.id}`,
    },
  };
}

/** Mails every owner with a confirmed address, each in the language of their last sign-in. */
export async function notifyOwners(
  app: BackgroundMail & { db: Db; config: { publicUrl: string } },
  application: Pick<ApplicationRow, "id" | "title" | "title_en">,
  notice: OwnerNotice,
  reason = "",
  unit?: ApprovingUnit,
): Promise<void> {
  const owners = await mailContactsOf(
    app.db,
    app.db.selectFrom("application_owners").select("user_id").where("application_id", "=", application.id),
  );
  for (const owner of owners) {
    const to = verifiedAddressOf(owner);
    if (!to) continue;
    const language = owner.language ?? "uk";
    const content = ownerNotice(notice, language, application, reason, app.config.publicUrl, unit);
    sendInBackground(app, { to, ...renderMessage(content, language) });
  }
}
