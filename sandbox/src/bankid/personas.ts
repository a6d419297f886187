import type { EnvelopeShape } from "@kpi-id/server/bankid-envelope";
import { type DemoPerson, demoPeople } from "@kpi-id/server/seed";

/**
 * The BankID stand-in's personas: who a bank says signed in, and what KPI ID must make of it. This is
 * the one table of the persona ↔ demo person mapping; the server tests and the Playwright walks read it.
 * `expect` is the outcome: "signed_in" as `username`, or the page's `bankid_auth_error` reason.
 */
export interface BankIdPersona {
  id: string;
  /** Shown on the stand-in's page. */
  label: { uk: string; en: string };
  /** The bank's JSON for this person (research/bankid-nbu.md §5); absent for personas that fail before it. */
  data?: Record<string, unknown>;
  /** How the bank encrypts the answer (default: the real sample's dynamic agreement, ukm, gamma mode). */
  envelope?: EnvelopeShape;
  /** What the stand-in does instead of answering normally. */
  behaviour?: "access_denied" | "invalid_grant" | "wrong_member" | "temporarily_unavailable";
  expect: { outcome: "signed_in"; username: string } | { outcome: "refused"; reason: string };
}

function demo(username: string): DemoPerson {
  const person = demoPeople.find((each) => each.username === username);
  if (!person) throw new Error(`no demo person ${username}`);
  return person;
}

function documentOf(person: DemoPerson, kind: string) {
  const document = person.documents?.find((each) => each.kind === kind);
  if (!document) throw new Error(`demo person ${person.username} has no ${kind}`);
  return { type: kind, series: document.series ?? "n/a", number: document.number };
}

const student = demo("student");
const employee = demo("employee");
const both = demo("both");
const newcomer = demo("newcomer");

/** A tax id with a valid check digit that no demo person holds. */
export const strangerTaxId = "3412345679";

const stamp = { clId: "sandbox-client", clIdText: "Інформація надана з використанням Системи BankID НБУ (пісочниця)" };

export const bankIdPersonas: BankIdPersona[] = [
  {
    id: "ordinary",
    label: { uk: "Олена Коваленко: звичайна особа (РНОКПП)", en: "Olena Kovalenko: an ordinary person (tax id)" },
    data: {
      type: "physical",
      lastName: "Коваленко",
      firstName: "Олена",
      middleName: "Петрівна",
      inn: student.taxId,
      birthDay: "14.03.2005",
      documents: [documentOf(student, "idpassport")],
      ...stamp,
    },
    expect: { outcome: "signed_in", username: student.username },
  },
  // The envelope shapes NBU's specification allows beside the default one (docs/bankid.md lists which
  // of them independent vectors prove): same person, another way of encrypting.
  ...(
    [
      [
        "static-issuer",
        "статична домовленість, сертифікат банку за видавцем і номером",
        "static agreement, the bank's certificate by issuer and serial",
        { originator: "issuerAndSerialNumber" },
      ],
      [
        "static-key-id",
        "статична домовленість за ідентифікатором ключа, без ukm",
        "static agreement by key id, no ukm",
        { originator: "subjectKeyIdentifier", ukm: false },
      ],
      [
        "static-in-envelope",
        "статична домовленість, сертифікат банку в конверті, у cert інший",
        "static agreement, the bank's certificate in the envelope, cert another",
        { originator: "issuerAndSerialNumber", carryCertificate: true },
      ],
      ["no-ukm", "динамічна домовленість без ukm", "dynamic agreement without ukm", { ukm: false }],
      ["cfb", "вміст у режимі CFB (ГОСТ 28147)", "content in GOST 28147 CFB mode", { cipher: "cfb" }],
    ] as const
  ).map(
    ([id, uk, en, envelope]): BankIdPersona => ({
      id,
      label: { uk: `Олена Коваленко: ${uk}`, en: `Olena Kovalenko: ${en}` },
      data: { type: "physical", lastName: "Коваленко", firstName: "Олена", inn: student.taxId, ...stamp },
      envelope,
      expect: { outcome: "signed_in", username: student.username },
    }),
  ),
  {
    id: "capitals",
    label: { uk: "АНДРІЙ МЕЛЬНИК: великі літери, по батькові n/a", en: "ANDRII MELNYK: capitals, middle name n/a" },
    data: {
      type: "physical",
      lastName: "МЕЛЬНИК",
      firstName: "АНДРІЙ",
      middleName: "n/a",
      inn: employee.taxId,
      birthDay: "1979-11-02",
      ...stamp,
    },
    expect: { outcome: "signed_in", username: employee.username },
  },
  {
    id: "no-tax-id-passport",
    label: {
      uk: "Максим Бондар: без РНОКПП (inn n/a), за паспортом",
      en: "Maksym Bondar: no tax id (inn n/a), by passport",
    },
    data: {
      type: "physical",
      lastName: "БОНДАР",
      firstName: "МАКСИМ",
      middleName: "ОЛЕГОВИЧ",
      inn: "n/a",
      birthDay: "01.09.2006",
      // Banks mix Latin lookalikes into the series; KPI ID reads "KB" as "КВ".
      documents: [{ ...documentOf(newcomer, "passport"), series: "KB" }],
      ...stamp,
    },
    expect: { outcome: "signed_in", username: newcomer.username },
  },
  {
    id: "id-card",
    label: {
      uk: "Ірина Шевченко: ID-картка без серії, inn n/a",
      en: "Iryna Shevchenko: ID card without series, inn n/a",
    },
    data: {
      type: "physical",
      lastName: "Шевченко",
      firstName: "Ірина",
      middleName: "n/a",
      inn: "n/a",
      documents: [{ ...documentOf(both, "idpassport"), series: "n/a" }],
      ...stamp,
    },
    expect: { outcome: "signed_in", username: both.username },
  },
  {
    id: "no-tax-id-unknown-document",
    label: { uk: "Без РНОКПП і з незнайомим паспортом", en: "No tax id and an unknown passport" },
    data: {
      type: "physical",
      lastName: "Петренко",
      firstName: "Оксана",
      middleName: "n/a",
      inn: "n/a",
      documents: [{ type: "passport", series: "ТТ", number: "999999" }],
      ...stamp,
    },
    expect: { outcome: "refused", reason: "not_identified" },
  },
  {
    id: "stranger",
    label: { uk: "Особа, якої університет не знає", en: "A person the university does not know" },
    data: {
      type: "physical",
      lastName: "Сидоренко",
      firstName: "Тарас",
      middleName: "Іванович",
      inn: strangerTaxId,
      ...stamp,
    },
    expect: { outcome: "refused", reason: "no_account" },
  },
  {
    id: "cancelled",
    label: { uk: "Скасувати згоду в банку", en: "Cancel consent at the bank" },
    behaviour: "access_denied",
    expect: { outcome: "refused", reason: "cancelled" },
  },
  {
    id: "expired-code",
    label: { uk: "Код застарів (invalid_grant)", en: "Expired code (invalid_grant)" },
    behaviour: "invalid_grant",
    expect: { outcome: "refused", reason: "expired" },
  },
  {
    id: "wrong-member",
    label: { uk: "Відповідь іншого банку (memberId)", en: "Another bank's answer (memberId)" },
    data: { type: "physical", lastName: "Коваленко", firstName: "Олена", inn: student.taxId, ...stamp },
    behaviour: "wrong_member",
    expect: { outcome: "refused", reason: "invalid_answer" },
  },
  {
    id: "bank-unavailable",
    label: { uk: "Банк тимчасово недоступний", en: "The bank is temporarily unavailable" },
    behaviour: "temporarily_unavailable",
    expect: { outcome: "refused", reason: "unavailable" },
  },
];

export function personaById(id: string): BankIdPersona | undefined {
  return bankIdPersonas.find((persona) => persona.id === id);
}
