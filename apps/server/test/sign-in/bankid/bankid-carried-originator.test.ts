import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-format.ts";
import { traceBankIdEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-reader.ts";
import { readCertificate } from "../../../src/sign-in/bankid/runtime.ts";
import { bankIdVectorFile, bankIdVectorKeys } from "../../support/bankid-vectors.ts";

// Static agreement where the answer's `cert` holds another of the bank's certificates (its signing one) and
// the envelope carries the encryption certificate in its originatorInfo, where cryptonite looks. The envelope
// is Bouncy Castle's (test/vectors/bankid/static-in-envelope: BankIdEnvelope.java writes the originatorInfo
// with its own OriginatorInfo, the CA's certificate first), not KPI ID's envelope maker.
const folder = "static-in-envelope";
const file = (name: string) => bankIdVectorFile(folder, name);
const envelope = readFileSync(file("envelope.b64"), "utf8").replace(/\s+/g, "");
const base64Of = (name: string) => readCertificate("BANKID_CERTIFICATE", file(name)).as_asn1().toString("base64");
const inside = new Date(Date.UTC(2030, 0, 1));
const memberId = "00032129";
const keys = bankIdVectorKeys(folder);
const open = (answer: { certificate?: string; memberId?: string }, trust = keys.trust) =>
  traceBankIdEnvelope(envelope, keys.ours, trust, inside, answer);

describe("static agreement with the bank's certificate carried in the envelope", () => {
  it("carries the CA's and the bank's encryption certificates, and `cert` holds neither", () => {
    const carried = readEnvelope(Buffer.from(envelope, "base64"))?.carriedCertificates ?? [];
    expect(carried.map((der) => der.toString("base64")).sort()).toEqual(
      [base64Of("ca.pem"), base64Of("originator.pem")].sort(),
    );
    expect(base64Of("answer-cert.pem")).not.toBe(base64Of("originator.pem"));
  });

  it("opens with the carried certificate when `cert` holds the bank's signing certificate, or is absent", () => {
    for (const answer of [{ memberId, certificate: base64Of("answer-cert.pem") }, { memberId }]) {
      const { result, steps } = open(answer);
      expect(result).toMatchObject({ ok: true, data: { inn: "3012345670" } });
      expect(steps.find((step) => step.step === "originator key")?.detail).toContain(
        "the bank's certificate from the envelope's certificates",
      );
    }
  });

  it("trusts a carried certificate no more than `cert`: it must chain to a configured CA and be the bank's", () => {
    const certificate = base64Of("answer-cert.pem");
    expect(open({ memberId, certificate }, { ...keys.trust, anchors: [] }).result).toEqual({
      ok: false,
      reason: "originator_untrusted",
    });
    expect(open({ memberId: "14360570", certificate }).result).toEqual({
      ok: false,
      reason: "originator_not_the_bank",
    });
  });
});
