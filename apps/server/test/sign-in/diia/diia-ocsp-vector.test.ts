import { readFileSync } from "node:fs";
import type { Certificate } from "jkurwa";
import { describe, expect, it } from "vitest";
import { createCertificateAuthority } from "../../../../../sandbox/src/diia/pki.ts";
import { verifyOcspResponse } from "../../../src/sign-in/diia/crypto/ocsp.ts";
import { OcspStore } from "../../../src/sign-in/diia/crypto/ocsp-store.ts";
import { parseTrustAnchors } from "../../../src/sign-in/diia/crypto/trust-anchors.ts";
import { diiaOcspVectors, vectorTimes } from "../../vectors/diia-ocsp/vectors.ts";

// OCSP responses Bouncy Castle built and signed (test/vectors/diia-ocsp/DiiaOcsp.java: its BasicOCSPRespBuilder,
// its CertificateID, its own GOST3411WITHDSTU4145LE signature), not jkurwa: the reader's parsing, CertID
// matching and signature check (by the CA and by a delegated OCSP signer) against an independent
// implementation. regenerate.sh remakes them.
const file = (folder: string, name: string) =>
  new URL(`../../vectors/diia-ocsp/${folder}/${name}`, import.meta.url).pathname;
const response = (folder: string) =>
  Buffer.from(readFileSync(file(folder, "response.b64"), "utf8").replace(/\s+/g, ""), "base64");
const certificate = (folder: string, name: string) => parseTrustAnchors(file(folder, name))[0] as Certificate;
const openedAt = new Date(vectorTimes.openedAt);

describe("Diia OCSP answers made by Bouncy Castle", () => {
  for (const [folder, vector] of Object.entries(diiaOcspVectors)) {
    it(`reads ${vector.proves}`, () => {
      const answer = verifyOcspResponse(
        response(folder),
        certificate(folder, "signer.pem"),
        certificate(folder, "ca.pem"),
        openedAt,
      );
      expect(answer).toEqual({
        status: vector.status,
        signedBy: vector.signedBy,
        thisUpdate: vectorTimes.thisUpdate,
        nextUpdate: vectorTimes.nextUpdate,
      });
    });

    it(`refuses the ${folder} answer tampered with, or checked against another CA`, () => {
      const tampered = response(folder);
      // Inside tbsResponseData: the single response's times sit before the signature (about 85 bytes).
      tampered[tampered.length - 100] = (tampered[tampered.length - 100] ?? 0) ^ 0x01;
      const signer = certificate(folder, "signer.pem");
      const ca = certificate(folder, "ca.pem");
      expect(() => verifyOcspResponse(tampered, signer, ca, openedAt)).toThrow();
      const [stranger] = parseTrustAnchors(createCertificateAuthority("Diia OCSP vector CA").certificate.as_pem());
      expect(() => verifyOcspResponse(response(folder), signer, stranger as Certificate, openedAt)).toThrow(
        /not signed by the signer's CA|does not answer for this certificate/,
      );
    });
  }

  it("refuses an answer about another certificate (the good answer read as if about the CA's own)", () => {
    const ca = certificate("good", "ca.pem");
    expect(() => verifyOcspResponse(response("good"), ca, ca, openedAt)).toThrow(
      /does not answer for this certificate/,
    );
  });

  it("counts the vectors' answers until nextUpdate plus the grace, then fails closed", async () => {
    const signer = certificate("revoked", "signer.pem");
    const ocsp = new OcspStore({
      responders: ["http://ocsp.vector.example/"],
      authorities: [certificate("revoked", "ca.pem")],
      graceSeconds: 3600,
      log: { info: () => {}, error: () => {} },
      signers: [signer],
      post: async () => response("revoked"),
    });
    await ocsp.refresh(openedAt);
    expect(ocsp.status(signer, openedAt)).toBe("revoked");
    expect(ocsp.status(signer, new Date(vectorTimes.nextUpdate + 3599_000))).toBe("revoked");
    expect(ocsp.status(signer, new Date(vectorTimes.nextUpdate + 3600_000))).toBe("unknown");
  });
});
