import type { IdentityDocumentKind } from "../../platform/db/schema-bankid.ts";
import { checkedTaxId } from "./tax-id.ts";

// The person a bank describes (research/bankid-nbu.md §5), reduced to what matching uses: the tax id
// when its check digit holds, and the identity documents. Banks write "n/a" for what they lack, names
// often in capitals; names are kept only for the audit trail, never to find anyone.

export interface BankDocument {
  kind: IdentityDocumentKind;
  /** Upper case, no spaces; '' for the ID card. */
  series: string;
  number: string;
}

export interface BankPerson {
  taxId?: string;
  documents: BankDocument[];
  /** "Прізвище Ім'я По батькові", title-cased, without "n/a" parts. */
  fullName: string;
}

const notAvailable = (value: string) => value === "" || value.toLowerCase() === "n/a";

function cleanText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return notAvailable(trimmed) ? undefined : trimmed;
}

/** Latin letters that look like the Cyrillic ones of a paper passport's series (banks mix them). */
const lookalikes: Record<string, string> = {
  A: "А",
  B: "В",
  C: "С",
  E: "Е",
  H: "Н",
  I: "І",
  K: "К",
  M: "М",
  O: "О",
  P: "Р",
  T: "Т",
  X: "Х",
};

/** Upper case without spaces or dashes; a paper passport's Latin lookalikes become Cyrillic. */
export function normaliseDocument(kind: IdentityDocumentKind, series: string, number: string): BankDocument {
  const squeeze = (value: string) => value.replace(/[\s-]+/g, "").toUpperCase();
  const cleanSeries = squeeze(series);
  return {
    kind,
    series:
      kind === "idpassport"
        ? ""
        : kind === "passport"
          ? [...cleanSeries].map((letter) => lookalikes[letter] ?? letter).join("")
          : cleanSeries,
    number: squeeze(number),
  };
}

const documentKinds: Record<string, IdentityDocumentKind> = {
  passport: "passport",
  idpassport: "idpassport",
  zpassport: "zpassport",
};

function documentsOf(value: unknown): BankDocument[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): BankDocument[] => {
    if (typeof raw !== "object" || raw === null) return [];
    const entry = raw as Record<string, unknown>;
    const kind = typeof entry.type === "string" ? documentKinds[entry.type] : undefined;
    const number = cleanText(entry.number);
    if (!kind || !number) return [];
    const document = normaliseDocument(kind, cleanText(entry.series) ?? "", number);
    // A paper passport or a travel passport without its series is not one document.
    if (kind !== "idpassport" && document.series === "") return [];
    return document.number === "" ? [] : [document];
  });
}

function titleCase(name: string): string {
  return name.toLocaleLowerCase("uk").replace(/(^|[\s'’-])(\p{L})/gu, (_all, before: string, letter: string) => {
    return before + letter.toLocaleUpperCase("uk");
  });
}

/** The bank's JSON as matching sees it; anything malformed is simply absent. */
export function readBankPerson(data: unknown): BankPerson {
  const person = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const names = [person.lastName, person.firstName, person.middleName]
    .map(cleanText)
    .filter((name): name is string => name !== undefined);
  return {
    taxId: checkedTaxId(person.inn),
    documents: documentsOf(person.documents),
    fullName: titleCase(names.join(" ")),
  };
}
