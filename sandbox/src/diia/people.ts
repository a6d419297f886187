import { demoPeople } from "@kpi-id/server/seed";
import { keptPki, madeFrom } from "../kept-pki.ts";
import {
  createCertificateAuthority,
  createIntermediateCa,
  issuePersonCertificate,
  type Party,
  type PersonIdentity,
} from "./pki.ts";
import type { SignatureShape } from "./signature-shapes.ts";

/** Someone the phone page can sign in as, with their own DSTU key and certificate. */
export interface PhonePerson {
  id: string;
  fullName: string;
  /** Shown on the phone page so a demo visitor knows what to expect. */
  note: string;
  party: Party;
  /** A signature shape other than jkurwa's own (signer's certificate first), and the CA that issued the party. */
  shape?: { kind: SignatureShape; issuer: Party };
}

function identity(fullName: string, taxId: string): PersonIdentity {
  // Demo names are "Given Surname"; certificates hold the surname first.
  const [givenName = fullName, ...rest] = fullName.split(" ");
  return { taxId, surname: rest.join(" "), givenName, patronymic: "" };
}

export interface StandInPki {
  /** The stand-in's qualified CA: the product's trust anchor. */
  trustedCa: Party;
  /** Issued by the trusted CA; the product must be told of it (DIIA_INTERMEDIATE_CAS) to follow it. */
  intermediateCa: Party;
  people: PhonePerson[];
  /** Certificates the trusted CA has revoked: its CRL lists them. */
  revoked: Party[];
  /** Revoked since the CA's last CRL: only its OCSP responder says so (the product watches them from the start). */
  revokedByOcspOnly: Party[];
  /** Signers whose signatures omit their certificate: the product must be given them (DIIA_SIGNER_CERTIFICATES). */
  absentSigners: Party[];
}

// A tax id no demo campus person has (RNOKPP are ten digits).
const strangerTaxId = "1234509876";

let madeInThisProcess: StandInPki | undefined;

/**
 * The stand-in's keys and certificates, made by the first stand-in this process starts and shared by the later
 * ones: DSTU keys and signatures in JavaScript cost about 0.9 s of CPU for the set, which every test file that
 * starts a stand-in paid again (issue 41: about 30 s of the server tests' CPU in a profile of the whole run).
 * Nothing in it changes once made. Given a DATA_DIR (`npm start`), the set is kept there for the next start
 * (kept-pki.ts).
 */
export function standInPki(dataDir?: string): StandInPki {
  madeInThisProcess ??= keptPki({
    dataDir,
    name: "diia-pki",
    fingerprint: madeFrom([new URL(import.meta.url), new URL("./pki.ts", import.meta.url)], demoPeople),
    make: createStandInPki,
  });
  const { trustedCa, intermediateCa, people, revoked, revokedByOcspOnly, absentSigners } = madeInThisProcess;
  return {
    trustedCa,
    intermediateCa,
    people: [...people],
    revoked: [...revoked],
    revokedByOcspOnly: [...revokedByOcspOnly],
    absentSigners: [...absentSigners],
  };
}

/**
 * Keys and certificates made at start: one per campus demo person, a person
 * the campus does not know, and a campus person's certificate from a CA the
 * product does not trust (same name and tax id, so only the chain can tell).
 */
function createStandInPki(): StandInPki {
  const trustedCa = createCertificateAuthority("Кваліфікований надавач ЕДП «Дія» (пісочниця)");
  const untrustedCa = createCertificateAuthority("Невідомий надавач ЕДП (пісочниця)");
  const intermediateCa = createIntermediateCa(trustedCa, "Проміжний ЦСК «Дія» (пісочниця)");
  const campus = demoPeople.map((person) => ({
    id: person.username,
    fullName: person.fullName,
    note: `campus person “${person.username}”`,
    party: issuePersonCertificate(trustedCa, identity(person.fullName, person.taxId)),
  }));
  const [first, second, third] = demoPeople;
  const extra: PhonePerson[] = [
    {
      id: "stranger",
      fullName: "Тарас Невідомий",
      note: "not a campus person: sign-in fails",
      party: issuePersonCertificate(trustedCa, identity("Тарас Невідомий", strangerTaxId)),
    },
  ];
  if (first) {
    extra.push({
      id: "untrusted",
      fullName: first.fullName,
      note: `“${first.username}” with a certificate from an untrusted CA: sign-in fails`,
      party: issuePersonCertificate(untrustedCa, identity(first.fullName, first.taxId)),
    });
  }
  if (second) {
    extra.push({
      id: "intermediate",
      fullName: second.fullName,
      note: `“${second.username}” with a certificate from the trusted CA's intermediate CA: signs in`,
      party: issuePersonCertificate(intermediateCa, identity(second.fullName, second.taxId)),
    });
  }
  const revoked: Party[] = [];
  if (third) {
    const party = issuePersonCertificate(trustedCa, identity(third.fullName, third.taxId));
    revoked.push(party);
    extra.push({
      id: "revoked",
      fullName: third.fullName,
      note: `“${third.username}” with a certificate the trusted CA revoked (on its CRL): sign-in fails`,
      party,
    });
  }
  const revokedByOcspOnly: Party[] = [];
  if (third) {
    const party = issuePersonCertificate(trustedCa, identity(third.fullName, third.taxId));
    revokedByOcspOnly.push(party);
    extra.push({
      id: "revoked-ocsp",
      fullName: third.fullName,
      note: `“${third.username}” revoked since the last CRL: only the CA's OCSP responder says so, sign-in fails`,
      party,
    });
  }
  const shaped = first ? shapePersonas(trustedCa, first) : [];
  const absentSigners = shaped.filter((each) => each.shape?.kind === "signer-absent").map((each) => each.party);
  const people = [...campus, ...extra, ...shaped];
  return { trustedCa, intermediateCa, people, revoked, revokedByOcspOnly, absentSigners };
}

const shapeNotes: Record<Exclude<SignatureShape, "signer-first">, string> = {
  "signer-not-first": "the CMS lists the CA's certificate before the signer's",
  "signer-absent": "the CMS holds no certificate (the product finds it in DIIA_SIGNER_CERTIFICATES)",
  "cades-x-long": "CAdES-X-Long unsigned attributes (certificate and revocation values and references, a time-stamp)",
};

/** One persona per signature shape, all the first campus person: each signs in. */
function shapePersonas(ca: Party, person: (typeof demoPeople)[number]): PhonePerson[] {
  return (Object.keys(shapeNotes) as (keyof typeof shapeNotes)[]).map((kind) => ({
    id: `shape-${kind}`,
    fullName: person.fullName,
    note: `“${person.username}”, ${shapeNotes[kind]}: signs in`,
    party: issuePersonCertificate(ca, identity(person.fullName, person.taxId)),
    shape: { kind, issuer: ca },
  }));
}
