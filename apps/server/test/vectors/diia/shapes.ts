// The independent Diia signature vectors, one folder each (test/diia-vector.test.ts opens every one;
// make-inputs.ts and DiiaSignature.java make them).

export interface DiiaVectorShape {
  /** Where the signer's certificate is: first in the CMS, after the CA's, or absent (then signer.pem is configured). */
  signer: "first" | "not-first" | "absent";
  /** CAdES-X-Long unsigned attributes (certificate and revocation values and references, a time-stamp). */
  xLong: boolean;
  /** What the vector proves, for the test's name. */
  proves: string;
}

export const diiaVectorShapes: Record<string, DiiaVectorShape> = {
  "signer-first": { signer: "first", xLong: false, proves: "the signer's certificate present and first" },
  "signer-not-first": { signer: "not-first", xLong: false, proves: "the signer's certificate present, after the CA's" },
  "signer-absent": {
    signer: "absent",
    xLong: false,
    proves: "the signer's certificate absent, found among the configured certificates by issuer and serial",
  },
  "cades-x-long": {
    signer: "first",
    xLong: true,
    proves: "CAdES-X-Long unsigned attributes (certificate-values, revocation-values, both references, a time-stamp)",
  },
};
