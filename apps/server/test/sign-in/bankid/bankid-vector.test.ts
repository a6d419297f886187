import { readFileSync } from "node:fs";
import { gost_unwrap } from "gost89/lib/compat.js";
import { describe, expect, it } from "vitest";
import { readEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-format.ts";
import { openBankIdEnvelope } from "../../../src/sign-in/bankid/crypto/envelope-reader.ts";
import { keyEncryptionKey, leadingZeroBytes, sharedX } from "../../../src/sign-in/bankid/crypto/key-agreement.ts";
import { keyOnOurCurve } from "../../../src/sign-in/bankid/crypto/originator.ts";
import { readBankPerson } from "../../../src/sign-in/bankid/person-data.ts";
import { type BankIdKeys, readCertificate } from "../../../src/sign-in/bankid/runtime.ts";
import { bankIdVectorFile, bankIdVectorKeys } from "../../support/bankid-vectors.ts";
import { vectorShapes } from "../../vectors/bankid/shapes.ts";

// Envelopes Bouncy Castle made (test/vectors/bankid/BankIdEnvelope.java: its own DSTU 4145 key agreement,
// GOST 34.311 KDF, GOST 28147 key wrap, gamma and CFB modes), not KPI ID's envelope maker: the reader's
// parsing, key agreement and ciphers are checked against an independent implementation, one folder per
// shape (shapes.ts). regenerate.sh remakes them.
const file = bankIdVectorFile;
const read = (folder: string, name: string) => readFileSync(file(folder, name), "utf8");
const inside = new Date(Date.UTC(2030, 0, 1));
const person = JSON.parse(read(".", "person.json"));
/** The vector bank's ЄДРПОУ, in its certificates (make-inputs.ts), as NBU's memberId. */
const memberId = "00032129";

const keysOf = bankIdVectorKeys;

const envelopeOf = (folder: string) => read(folder, "envelope.b64").replace(/\s+/g, "");
const certificateOf = (folder: string, name: string) =>
  readCertificate("BANKID_CERTIFICATE", file(folder, name)).as_asn1().toString("base64");
/** The answer beside the envelope: under static agreement `cert` is the originator, or (carried) another. */
const answerOf = (folder: string) => {
  const shape = vectorShapes[folder];
  if (shape?.originator === "key") return { memberId };
  return { memberId, certificate: certificateOf(folder, shape?.carried ? "answer-cert.pem" : "originator.pem") };
};

/** x of a dynamic-agreement vector, as the reader computes it. */
function sharedXOf(folder: string, keys: BankIdKeys): Buffer {
  const envelope = readEnvelope(Buffer.from(envelopeOf(folder), "base64"));
  if (envelope?.originator.kind !== "originatorKey") throw new Error("not a dynamic agreement");
  const theirs = keyOnOurCurve(keys.ours.key, envelope.originator.publicKey);
  if (!theirs) throw new Error("no originator key");
  return sharedX(keys.ours.key, theirs);
}

describe("BankID envelopes made by Bouncy Castle", () => {
  const shapes = Object.entries(vectorShapes).map(([folder, { proves }]) => ({ folder, proves }));
  it.each(shapes)("$folder opens: $proves", ({ folder }) => {
    const keys = keysOf(folder);
    const opened = openBankIdEnvelope(envelopeOf(folder), keys.ours, keys.trust, inside, answerOf(folder));
    expect(opened).toMatchObject({ ok: true, data: person });
    if (opened.ok) expect(readBankPerson(opened.data)).toMatchObject({ taxId: "3012345670" });
  });

  it("has the shapes it claims: no ukm, the curves' key sizes, CFB, static originators", () => {
    const parts = (folder: string) => readEnvelope(Buffer.from(envelopeOf(folder), "base64"));
    expect(parts("no-ukm")?.ukm).toBeUndefined();
    expect(parts(".")?.ukm).toHaveLength(64);
    // The compressed point in its OCTET STRING: 2 + 54 bytes on the 431-bit curve, as in the real sample.
    const keyBytes = (folder: string) => {
      const originator = parts(folder)?.originator;
      return originator?.kind === "originatorKey" ? originator.publicKey.length - 2 : 0;
    };
    expect([keyBytes("."), keyBytes("curve-307"), keyBytes("curve-431")]).toEqual([33, 39, 54]);
    expect(parts("cfb")?.contentCipher).toBe("1.2.804.2.1.1.1.1.1.1.3");
    expect(parts(".")?.contentCipher).toBe("1.2.804.2.1.1.1.1.1.1.2");
    expect(parts("static-issuer-serial")?.originator.kind).toBe("issuerAndSerialNumber");
    expect(parts("static-key-id")?.originator.kind).toBe("subjectKeyIdentifier");
  });

  it("refuses each envelope for another recipient and after a flipped byte", () => {
    for (const folder of Object.keys(vectorShapes)) {
      const keys = keysOf(folder);
      const other = readCertificate("BANKID_CERTIFICATE", file(folder, "ca.pem"));
      const envelope = envelopeOf(folder);
      const answer = answerOf(folder);
      expect(
        openBankIdEnvelope(envelope, { ...keys.ours, certificate: other }, keys.trust, inside, answer),
      ).toMatchObject({
        ok: false,
        reason: "wrong_recipient",
      });
      const bytes = Buffer.from(envelope, "base64");
      bytes[bytes.length - 20] = (bytes[bytes.length - 20] ?? 0) ^ 0x01;
      expect(openBankIdEnvelope(bytes.toString("base64"), keys.ours, keys.trust, inside, answer).ok).toBe(false);
    }
  });
});

describe("static agreement: the bank's encryption certificate from the answer's cert", () => {
  const folder = "static-issuer-serial";
  const keys = keysOf(folder);
  const open = (answer: { certificate?: string; memberId?: string }) =>
    openBankIdEnvelope(envelopeOf(folder), keys.ours, keys.trust, inside, answer);

  it("refuses the answer without it, with another certificate, or for another bank", () => {
    expect(open({ memberId })).toEqual({ ok: false, reason: "originator_certificate_missing" });
    expect(open({ memberId, certificate: certificateOf(folder, "recipient.pem") })).toEqual({
      ok: false,
      reason: "originator_certificate_mismatch",
    });
    expect(open({ memberId: "14360570", certificate: certificateOf(folder, "originator.pem") })).toEqual({
      ok: false,
      reason: "originator_not_the_bank",
    });
    // memberId as NBU may send it, a number without the code's leading zeros.
    expect(open({ memberId: "32129", certificate: certificateOf(folder, "originator.pem") }).ok).toBe(true);
  });

  it("refuses a certificate that no configured CA issued or that has expired", () => {
    const certificate = certificateOf(folder, "originator.pem");
    const untrusted = { ...keys.trust, anchors: [] };
    expect(openBankIdEnvelope(envelopeOf(folder), keys.ours, untrusted, inside, { memberId, certificate })).toEqual({
      ok: false,
      reason: "originator_untrusted",
    });
    const after = new Date(Date.UTC(2050, 0, 1));
    expect(openBankIdEnvelope(envelopeOf(folder), keys.ours, keys.trust, after, { memberId, certificate })).toEqual({
      ok: false,
      reason: "originator_untrusted",
    });
  });
});

describe("the shared secret's leading zero bytes", () => {
  const unwraps = (folder: string, rule: "strip_all" | "strip_one") => {
    const keys = keysOf(folder);
    const envelope = readEnvelope(Buffer.from(envelopeOf(folder), "base64"));
    if (!envelope) throw new Error("unreadable vector");
    try {
      gost_unwrap(keyEncryptionKey(sharedXOf(folder, keys), envelope.ukm, rule), envelope.encryptedKey);
      return true;
    } catch {
      return false;
    }
  };

  it("the vectors' x starts with the zero bytes Bouncy Castle reports", () => {
    for (const [folder, zeros] of [
      ["zz-one-zero", 1],
      ["zz-two-zeros", 2],
      ["zz-two-zeros-strip-one", 2],
    ] as const) {
      expect(Number(read(folder, "x-leading-zeros.txt"))).toBe(zeros);
      expect(leadingZeroBytes(sharedXOf(folder, keysOf(folder)))).toBe(zeros);
    }
  });

  it("one leading zero: both rules give the same key", () => {
    expect([unwraps("zz-one-zero", "strip_all"), unwraps("zz-one-zero", "strip_one")]).toEqual([true, true]);
  });

  it("two leading zeros: the certified libraries' rule (all dropped) is the reader's first, jkurwa's its fallback", () => {
    expect([unwraps("zz-two-zeros", "strip_all"), unwraps("zz-two-zeros", "strip_one")]).toEqual([true, false]);
    expect([unwraps("zz-two-zeros-strip-one", "strip_all"), unwraps("zz-two-zeros-strip-one", "strip_one")]).toEqual([
      false,
      true,
    ]);
  });
});
