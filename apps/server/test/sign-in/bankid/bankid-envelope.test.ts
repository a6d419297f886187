import { describe, expect, it } from "vitest";
import {
  createCertificateAuthority,
  issueCertificate,
  issuePersonCertificate,
  newKey,
  type Party,
} from "../../../../../sandbox/src/diia/pki.ts";
import {
  encryptForBankId,
  makeBankIdEnvelope,
  signForBankId,
} from "../../../src/sign-in/bankid/crypto/envelope-maker.ts";
import { openBankIdEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-reader.ts";

const bankCa = createCertificateAuthority("Test qualified CA");
const bank = issuePersonCertificate(bankCa, {
  taxId: "00032129",
  surname: "Test bank",
  givenName: "signer",
  patronymic: "",
});

function keyAgreementParty(ca: Party, commonName: string, organisationCode?: string): Party {
  const key = newKey();
  const name = { commonName, organizationName: "KPI ID", countryName: "UA" };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial: Math.floor(Math.random() * 0x7fffff),
    valid: { from: Date.now() - 3600_000, to: Date.now() + 86_400_000 },
    ca: false,
    keyAgreement: true,
    organisationCode,
  });
  return { key, certificate, name };
}

const ours = keyAgreementParty(bankCa, "KPI ID encryption");
const trust = { anchors: [bankCa.certificate], intermediates: [] };
const person = { firstName: "Олена", middleName: "n/a", lastName: "КОВАЛЬ", inn: "3012345678" };
const now = new Date();

describe("BankID NBU envelope", () => {
  it("decrypts, verifies the bank's signature and reads the UTF-8 JSON", () => {
    const envelope = makeBankIdEnvelope({ data: person, bank, recipient: ours.certificate });
    const opened = openBankIdEnvelope(envelope, ours, trust, now);
    expect(opened).toMatchObject({ ok: true, data: person });
    if (opened.ok) expect(opened.signer.serial.toString(16)).toBe(bank.certificate.serial.toString(16));
  });

  it("refuses an envelope for another organisation, even with our key's id faked", () => {
    const other = keyAgreementParty(bankCa, "Another university");
    const envelope = makeBankIdEnvelope({ data: person, bank, recipient: other.certificate });
    expect(openBankIdEnvelope(envelope, ours, trust, now)).toEqual({ ok: false, reason: "wrong_recipient" });
    const posingAsUs = { key: ours.key, certificate: other.certificate };
    expect(openBankIdEnvelope(envelope, posingAsUs, trust, now)).toEqual({ ok: false, reason: "undecryptable" });
  });

  it("refuses a signature whose content was changed after signing", () => {
    const signed = signForBankId(person, bank);
    const original = Buffer.from(JSON.stringify(person), "utf8");
    const start = signed.indexOf(original);
    const forged = Buffer.from(signed);
    forged.set(Buffer.from(JSON.stringify({ ...person, inn: "3099999999" }), "utf8"), start);
    const envelope = encryptForBankId(forged, ours.certificate).toString("base64");
    expect(openBankIdEnvelope(envelope, ours, trust, now)).toEqual({ ok: false, reason: "digest_mismatch" });
  });

  it("refuses a bank certificate no configured CA issued, and one not valid now", () => {
    const rogueCa = createCertificateAuthority("Rogue CA");
    const rogueBank = issuePersonCertificate(rogueCa, {
      taxId: "1",
      surname: "Rogue",
      givenName: "bank",
      patronymic: "",
    });
    const envelope = makeBankIdEnvelope({ data: person, bank: rogueBank, recipient: ours.certificate });
    expect(openBankIdEnvelope(envelope, ours, trust, now)).toEqual({ ok: false, reason: "untrusted_certificate" });
    const genuine = makeBankIdEnvelope({ data: person, bank, recipient: ours.certificate });
    const later = new Date(bank.certificate.valid.to + 1000);
    expect(openBankIdEnvelope(genuine, ours, trust, later)).toEqual({ ok: false, reason: "certificate_not_valid_now" });
  });

  it("refuses bytes that are no envelope, and flipped ciphertext", () => {
    expect(openBankIdEnvelope("bm90IGFuIGVudmVsb3Bl", ours, trust, now)).toEqual({ ok: false, reason: "malformed" });
    const der = Buffer.from(makeBankIdEnvelope({ data: person, bank, recipient: ours.certificate }), "base64");
    der[der.length - 5] = (der[der.length - 5] ?? 0) ^ 0xff;
    const opened = openBankIdEnvelope(der.toString("base64"), ours, trust, now);
    expect(opened.ok).toBe(false);
  });
});

describe("DSTU 4145 key agreement", () => {
  it("gives both sides the same key for every one of 30 random key pairs", async () => {
    const { sharedKey } = await import("../../../src/sign-in/bankid/crypto/key-agreement.ts");
    const ukm = Buffer.alloc(64, 7);
    for (let pair = 0; pair < 30; pair++) {
      const [alice, bob] = [newKey(), newKey()];
      expect(sharedKey(alice, bob.pub(), ukm).toString("hex")).toBe(sharedKey(bob, alice.pub(), ukm).toString("hex"));
    }
  });
});

describe("DSTU 4145 curves beyond jkurwa's two", () => {
  it("every polynomial-basis curve: valid keys, and both sides of an agreement agree", async () => {
    const { sharedKey } = await import("../../../src/sign-in/bankid/crypto/key-agreement.ts");
    const { supportedCurveSizes } = await import("../../../src/sign-in/bankid/crypto/dstu-curves.ts");
    for (const size of supportedCurveSizes) {
      const [alice, bob] = [newKey(`DSTU_PB_${size}`), newKey(`DSTU_PB_${size}`)];
      expect(alice.pub().validate(), `DSTU_PB_${size}`).toBe(true);
      expect(sharedKey(alice, bob.pub(), undefined).equals(sharedKey(bob, alice.pub(), undefined))).toBe(true);
    }
  });

  it("the stand-in's shapes round-trip: static agreement both ways, no ukm, CFB", () => {
    const bankEncryption = keyAgreementParty(bankCa, "Bank encryption", "00032129");
    for (const shape of [
      { originator: "issuerAndSerialNumber", cipher: "cfb" },
      { originator: "subjectKeyIdentifier", ukm: false },
      { ukm: false, cipher: "cfb" },
    ] as const) {
      const envelope = makeBankIdEnvelope({ data: person, bank, recipient: ours.certificate, shape, bankEncryption });
      const answer = { certificate: bankEncryption.certificate.as_asn1().toString("base64"), memberId: "00032129" };
      expect(openBankIdEnvelope(envelope, ours, trust, now, answer)).toMatchObject({ ok: true, data: person });
    }
  });
});

describe("BankID envelope parser under mutation", () => {
  it("never throws and never yields data other than what the bank signed", () => {
    const der = Buffer.from(makeBankIdEnvelope({ data: person, bank, recipient: ours.certificate }), "base64");
    let seed = 38;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 0x80000000;
      return seed;
    };
    for (let round = 0; round < 60; round++) {
      const mutated = Buffer.from(der);
      for (let flips = 1 + (next() % 3); flips > 0; flips--) mutated[next() % mutated.length] = next() % 256;
      const cut = round % 10 === 0 ? mutated.subarray(0, next() % mutated.length) : mutated;
      const opened = openBankIdEnvelope(cut.toString("base64"), ours, trust, now);
      if (opened.ok) expect(opened.data).toEqual(person);
    }
  });
});

describe("the organisation's encryption certificate", () => {
  it("passes when it is for key agreement only, valid, and the configured key's", async () => {
    const { checkOrganisationCertificate } = await import(
      "../../../src/sign-in/bankid/crypto/organisation-certificate.ts"
    );
    expect(checkOrganisationCertificate(ours.certificate, ours.key, now)).toEqual([]);
  });

  it("names each problem: a signing certificate, another key, expiry", async () => {
    const { checkOrganisationCertificate } = await import(
      "../../../src/sign-in/bankid/crypto/organisation-certificate.ts"
    );
    expect(checkOrganisationCertificate(bank.certificate, bank.key, now)).toEqual(["not_key_agreement"]);
    expect(checkOrganisationCertificate(ours.certificate, newKey(), now)).toEqual(["key_does_not_match"]);
    const later = new Date(ours.certificate.valid.to);
    expect(checkOrganisationCertificate(ours.certificate, ours.key, later)).toEqual(["expired"]);
    const earlier = new Date(ours.certificate.valid.from - 1);
    expect(checkOrganisationCertificate(ours.certificate, ours.key, earlier)).toEqual(["not_yet_valid"]);
  });
});
