/** What each OCSP vector folder holds: an answer Bouncy Castle built and signed (DiiaOcsp.java). */
export interface DiiaOcspVector {
  status: "good" | "revoked";
  /** Who signed: the CA's own key, or an OCSP signer it delegated (its certificate travels in the answer). */
  signedBy: "issuer" | "delegated";
  /** The CertID's form: SHA-1 as RFC 6960 hashes the issuer's name and key, or GOST 34.311 with the key id. */
  certId: "sha1" | "gost-key-id";
  proves: string;
}

export const diiaOcspVectors: Record<string, DiiaOcspVector> = {
  good: {
    status: "good",
    signedBy: "issuer",
    certId: "sha1",
    proves: "a good answer the CA signed, with an RFC 6960 SHA-1 CertID",
  },
  revoked: {
    status: "revoked",
    signedBy: "delegated",
    certId: "gost-key-id",
    proves: "a revoked answer a delegated OCSP signer signed, with a GOST 34.311 CertID naming the issuer's key id",
  },
};

/** Every answer's thisUpdate and nextUpdate (DiiaOcsp.java), and when the tests open them. */
export const vectorTimes = {
  thisUpdate: Date.UTC(2029, 11, 31),
  nextUpdate: Date.UTC(2030, 0, 2),
  openedAt: Date.UTC(2030, 0, 1),
};
