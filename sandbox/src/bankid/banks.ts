/// <reference types="@kpi-id/server/dstu-modules" />
import "@kpi-id/server/dstu-curves";
import { createCertificateAuthority, issueCertificate, newKey, type Party } from "../diia/pki.ts";
import { keptPki, madeFrom } from "../kept-pki.ts";

/** A bank of the stand-in's list, as NBU's `/api/banks` gives it, with its signing key. */
export interface StandInBank {
  id: string;
  name: string;
  memberId: string;
  workable: boolean;
  order: number;
  /** Two letters on a coloured square: the stand-in's logo (an SVG it serves). */
  logo: { letters: string; colour: string };
}

export const standInBanks: StandInBank[] = [
  {
    id: "privatbank",
    name: "ПриватБанк",
    memberId: "14360570",
    workable: true,
    order: 1,
    logo: { letters: "П", colour: "#71b732" },
  },
  {
    id: "monobank",
    name: "monobank",
    memberId: "22866",
    workable: true,
    order: 2,
    logo: { letters: "m", colour: "#111111" },
  },
  {
    id: "oschadbank",
    name: "Ощадбанк",
    memberId: "00032129",
    workable: true,
    order: 3,
    logo: { letters: "О", colour: "#00693c" },
  },
  // Listed but not workable: KPI ID must leave it out of its picker and refuse it.
  {
    id: "sleepybank",
    name: "Сонний банк",
    memberId: "99999999",
    workable: false,
    order: 4,
    logo: { letters: "С", colour: "#888888" },
  },
];

export function logoSvg(bank: StandInBank): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">` +
    `<rect width="48" height="48" rx="10" fill="${bank.logo.colour}"/>` +
    `<text x="24" y="32" font-family="sans-serif" font-size="24" font-weight="700" fill="#fff" text-anchor="middle">` +
    `${bank.logo.letters}</text></svg>`
  );
}

export interface BankIdPki {
  /** The stand-in's qualified CA: it issued the banks' signing certificates and KPI ID's encryption one. */
  ca: Party;
  banks: Map<string, Party>;
  /** Each bank's encryption certificate (keyAgreement, its ЄДРПОУ = memberId): static agreement's originator. */
  bankEncryption: Map<string, Party>;
  /** KPI ID's organisation key and key-agreement certificate, as a qualified provider would issue them. */
  organisation: Party;
}

const hourMs = 3600 * 1000;
const yearMs = 365 * 24 * hourMs;
let serial = (Math.floor(Date.now() / 1000) % 0x3fffff) + 0x400000;

interface IssueFor {
  keyAgreement: boolean;
  now: number;
  /** The organisation's ЄДРПОУ code: a bank's certificates carry it, and it is the bank's memberId. */
  organisationCode?: string;
  curve?: string;
}

function issue(ca: Party, commonName: string, organizationName: string, options: IssueFor): Party {
  const { keyAgreement, now, organisationCode } = options;
  const key = newKey(options.curve);
  const name = { commonName, organizationName, countryName: "UA" };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial: serial++,
    valid: { from: now - hourMs, to: now + 2 * yearMs },
    ca: false,
    keyAgreement,
    organisationCode,
  });
  return { key, certificate, name };
}

const madeInThisProcess = new Map<string, BankIdPki>();

/** DSTU 4145 curves the stand-in can give KPI ID's encryption key (SANDBOX_BANKID_CURVE). */
export const standInCurves = ["DSTU_PB_257", "DSTU_PB_307", "DSTU_PB_431"] as const;
export type StandInCurve = (typeof standInCurves)[number];

/**
 * The stand-in's CA, bank and organisation keys, made by the first stand-in this process starts and shared by the
 * later ones (about 0.4 s of CPU), as the Diia stand-in's are (people.ts says why). KPI ID's encryption key is
 * on `curve`, and so are the banks' encryption keys (static agreement needs one curve). Given a DATA_DIR
 * (`npm start`), the set is kept there for the next start (kept-pki.ts).
 */
export function bankIdPki(curve: StandInCurve = "DSTU_PB_257", dataDir?: string): BankIdPki {
  const made =
    madeInThisProcess.get(curve) ??
    keptPki({
      dataDir,
      name: `bankid-pki-${curve}`,
      fingerprint: madeFrom([new URL(import.meta.url), new URL("../diia/pki.ts", import.meta.url)], {
        curve,
        standInBanks,
      }),
      make: () => createBankIdPki(curve),
    });
  madeInThisProcess.set(curve, made);
  const { ca, banks, bankEncryption, organisation } = made;
  return { ca, banks: new Map(banks), bankEncryption: new Map(bankEncryption), organisation };
}

function createBankIdPki(curve: StandInCurve, now = Date.now()): BankIdPki {
  const ca = createCertificateAuthority("BankID sandbox qualified CA", now);
  const banks = new Map(
    standInBanks.map((bank) => [
      bank.id,
      issue(ca, bank.name, bank.name, { keyAgreement: false, now, organisationCode: bank.memberId }),
    ]),
  );
  const bankEncryption = new Map(
    standInBanks.map((bank) => [
      bank.id,
      issue(ca, `${bank.name} (шифрування)`, bank.name, {
        keyAgreement: true,
        now,
        organisationCode: bank.memberId,
        curve,
      }),
    ]),
  );
  const organisation = issue(ca, "KPI ID encryption (sandbox)", "КПІ ім. Ігоря Сікорського", {
    keyAgreement: true,
    now,
    curve,
  });
  return { ca, banks, bankEncryption, organisation };
}
