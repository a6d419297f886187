import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JkurwaSignatureVerifier } from "../../../src/sign-in/diia/crypto/jkurwa-verifier.ts";
import { parseTrustAnchors } from "../../../src/sign-in/diia/crypto/trust-anchors.ts";
import { diiaVectorShapes } from "../../vectors/diia/shapes.ts";

// Diia ID signatures Bouncy Castle made (test/vectors/diia/DiiaSignature.java: its own GOST 34.311 and
// GOST3411WITHDSTU4145LE signature, its own CMS and CAdES-X-Long attributes), not jkurwa: the reader's
// parsing, signer lookup and signature check are checked against an independent implementation, one folder
// per shape (shapes.ts). regenerate.sh remakes them.
const file = (folder: string, name: string) =>
  new URL(`../../vectors/diia/${folder}/${name}`, import.meta.url).pathname;
const read = (folder: string, name: string) => readFileSync(file(folder, name), "utf8");
const inside = new Date(Date.UTC(2030, 0, 1));

function verifierFor(folder: string, withSigner = true): JkurwaSignatureVerifier {
  const signers =
    withSigner && existsSync(file(folder, "signer.pem")) ? parseTrustAnchors(file(folder, "signer.pem")) : [];
  return new JkurwaSignatureVerifier(parseTrustAnchors(file(folder, "ca.pem")), [], undefined, signers);
}

const inputOf = (folder: string) => ({
  signature: Buffer.from(read(folder, "signature.b64").replace(/\s+/g, ""), "base64"),
  requestId: read(folder, "request-id.txt").trim(),
  now: inside,
});

const expectedSource = {
  first: "first in the CMS",
  "not-first": "in the CMS, not first",
  absent: "configured (absent from the CMS)",
} as const;

describe("Diia signatures made by Bouncy Castle", () => {
  for (const [folder, shape] of Object.entries(diiaVectorShapes)) {
    it(`opens ${shape.proves} and reads the person`, () => {
      const { result, steps } = verifierFor(folder).trace(inputOf(folder));
      const person = JSON.parse(read(folder, "person.json"));
      expect(result).toEqual({ ok: true, signer: person });
      expect(steps.find((step) => step.step === "signer's certificate")?.detail).toBe(expectedSource[shape.signer]);
    });
  }

  it("names every CAdES-X-Long unsigned attribute it parsed", () => {
    const { steps } = verifierFor("cades-x-long").trace(inputOf("cades-x-long"));
    const parse = steps.find((step) => step.step === "parse")?.detail ?? "";
    for (const name of [
      "signature-time-stamp",
      "complete-certificate-references",
      "complete-revocation-references",
      "certificate-values",
      "revocation-values",
    ])
      expect(parse).toContain(name);
  });

  it("refuses an absent signer's certificate that is not configured, saying it is absent", () => {
    const { result, steps } = verifierFor("signer-absent", false).trace(inputOf("signer-absent"));
    expect(result).toEqual({ ok: false, reason: "signer_certificate_absent" });
    expect(steps.at(-1)).toMatchObject({ step: "signer's certificate", ok: false });
  });

  it("refuses a Bouncy Castle signature over another request id", () => {
    const result = verifierFor("signer-not-first").verify({ ...inputOf("signer-not-first"), requestId: "another" });
    expect(result).toEqual({ ok: false, reason: "digest_mismatch" });
  });

  it("refuses a signature whose value was changed after Bouncy Castle made it", () => {
    const input = inputOf("signer-first");
    const signature = Buffer.from(input.signature);
    // Without unsigned attributes the SignerInfo's 64-byte signature value (OCTET STRING 04 40) ends the CMS.
    const valueAt = signature.lastIndexOf(Buffer.from([0x04, 0x40])) + 10;
    signature[valueAt] = (signature[valueAt] ?? 0) ^ 0x01;
    expect(verifierFor("signer-first").verify({ ...input, signature })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses the vectors' signer when its CA is not configured", () => {
    const signer = parseTrustAnchors(file("signer-absent", "signer.pem"));
    const verifier = new JkurwaSignatureVerifier([], [], undefined, signer);
    expect(verifier.verify(inputOf("signer-absent"))).toEqual({ ok: false, reason: "untrusted_certificate" });
  });
});
