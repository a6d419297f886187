import { beforeAll, describe, expect, it } from "vitest";
import {
  createCertificateAuthority,
  createIntermediateCa,
  issuePersonCertificate,
  type Party,
  signRequestHash,
} from "../../../../../sandbox/src/diia/pki.ts";
import { gost34311, hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { JkurwaSignatureVerifier } from "../../../src/sign-in/diia/crypto/jkurwa-verifier.ts";
import { parseTrustAnchors } from "../../../src/sign-in/diia/crypto/trust-anchors.ts";

describe("GOST 34.311-95 hash", () => {
  // The published vectors of the gost89 reference implementation (test/test-hash.js there).
  it("hashes the 32-byte vector", () => {
    expect(gost34311("12345678901234567890123456789011").toString("hex")).toBe(
      "7686f3f4b113aadc97bca9ea054f41821f0676c5c28ffb987e41797a568e1ed4",
    );
  });

  it("hashes bytes 0..31", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, index) => index);
    expect(gost34311(bytes).toString("hex")).toBe("811cb06a8ee423182d9cc9d281f783908f4cfbaf47a68be8415d3499674a3063");
  });

  it("hashes a short value", () => {
    expect(gost34311("123123").toString("hex")).toBe(
      "34d4da2c04e9c1ceb933282069c864617d94ed7cc5c0a9840c0c1a99629df637",
    );
  });

  it("gives Diia base64 of the 32-byte hash of our request id", () => {
    const hashed = hashRequestId("123123");
    expect(Buffer.from(hashed, "base64").toString("hex")).toBe(gost34311("123123").toString("hex"));
  });
});

const olena = { taxId: "3034512345", surname: "Петренко", givenName: "Олена", patronymic: "Іванівна" };

describe("Diia ID signature check (DSTU 4145, detached CMS)", () => {
  const requestId = "6f1c0b7e-3f2a-4d5b-9c8e-0a1b2c3d4e5f";
  const now = new Date();
  let trustedCa: Party;
  let person: Party;
  let verifier: JkurwaSignatureVerifier;

  beforeAll(() => {
    trustedCa = createCertificateAuthority("Test qualified CA");
    person = issuePersonCertificate(trustedCa, olena);
    verifier = new JkurwaSignatureVerifier(parseTrustAnchors(trustedCa.certificate.as_pem()));
  });

  it("accepts the stand-in's signature and reads the RNOKPP and full name from the certificate", () => {
    const signature = signRequestHash(person, hashRequestId(requestId));
    expect(verifier.verify({ signature, requestId, now })).toEqual({
      ok: true,
      signer: { taxId: "3034512345", fullName: "Петренко Олена Іванівна" },
    });
  });

  it("refuses the signature when one byte of the signature value is altered", () => {
    const signature = signRequestHash(person, hashRequestId(requestId));
    const altered = Buffer.from(signature);
    // The signature value (encryptedDigest) is the last field of the SignerInfo, at the end.
    const index = altered.length - 5;
    altered[index] = (altered[index] ?? 0) ^ 0x01;
    expect(verifier.verify({ signature: altered, requestId, now })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses a signature over another request id", () => {
    const signature = signRequestHash(person, hashRequestId("another-request"));
    expect(verifier.verify({ signature, requestId, now })).toEqual({ ok: false, reason: "digest_mismatch" });
  });

  it("refuses a certificate issued by a CA that is not a trust anchor", () => {
    const otherCa = createCertificateAuthority("Test qualified CA");
    const impostor = issuePersonCertificate(otherCa, olena);
    const signature = signRequestHash(impostor, hashRequestId(requestId));
    expect(verifier.verify({ signature, requestId, now })).toEqual({ ok: false, reason: "untrusted_certificate" });
  });

  it("follows configured intermediate CAs to a trust anchor, and only to one", () => {
    const intermediate = createIntermediateCa(trustedCa, "Test intermediate CA");
    const underIntermediate = issuePersonCertificate(intermediate, olena);
    const signature = signRequestHash(underIntermediate, hashRequestId(requestId));
    const anchors = parseTrustAnchors(trustedCa.certificate.as_pem());
    // Without the intermediate configured the signer's issuer is unknown.
    expect(verifier.verify({ signature, requestId, now })).toEqual({ ok: false, reason: "untrusted_certificate" });
    const chained = new JkurwaSignatureVerifier(anchors, parseTrustAnchors(intermediate.certificate.as_pem()));
    expect(chained.verify({ signature, requestId, now })).toMatchObject({ ok: true, signer: { taxId: "3034512345" } });
    // An "intermediate" that no anchor issued (here: self-signed) leads nowhere, even when configured.
    const rogue = createCertificateAuthority("Test intermediate CA");
    const underRogue = issuePersonCertificate(rogue, olena);
    const withRogue = new JkurwaSignatureVerifier(anchors, parseTrustAnchors(rogue.certificate.as_pem()));
    expect(
      withRogue.verify({ signature: signRequestHash(underRogue, hashRequestId(requestId)), requestId, now }),
    ).toEqual({ ok: false, reason: "untrusted_certificate" });
  });

  it("refuses a certificate outside its validity dates", () => {
    const signature = signRequestHash(person, hashRequestId(requestId));
    const later = new Date(now.getTime() + 3 * 365 * 24 * 3600 * 1000);
    expect(verifier.verify({ signature, requestId, now: later })).toEqual({
      ok: false,
      reason: "certificate_not_valid_now",
    });
  });

  it("refuses what is not a CMS signature", () => {
    expect(verifier.verify({ signature: Buffer.from("not a signature"), requestId, now })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it("refuses trust anchor text that holds no certificate", () => {
    expect(() => parseTrustAnchors("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----")).toThrow(
      /cannot be parsed/,
    );
  });
});
