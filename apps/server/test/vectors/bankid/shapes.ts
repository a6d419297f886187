// The independent BankID vectors, one folder each (test/bankid-vector.test.ts opens every one; make-inputs.ts
// and BankIdEnvelope.java make them). The root folder is the real sample's layout with a 257-bit key.

export interface VectorShape {
  curve: "DSTU_PB_257" | "DSTU_PB_307" | "DSTU_PB_431";
  ukm: boolean;
  /** An ephemeral key (dynamic agreement), or the bank's encryption certificate by issuer+serial or key id. */
  originator: "key" | "issuer" | "keyid";
  cipher: "ctr" | "cfb";
  /** How many zero bytes the field-sized x must start with ("any": whatever the draw gives). */
  zeros: "any" | "0" | "1" | "2";
  /** ZZ drops every leading zero byte (cryptonite, UAPKI) or one (jkurwa). */
  rule: "all" | "one";
  /**
   * Static agreement only: the envelope's originatorInfo carries the CA's and the bank's encryption
   * certificates, and the answer's `cert` holds the bank's signing certificate (answer-cert.pem).
   */
  carried?: boolean;
  /** What the vector proves, for the test's name. */
  proves: string;
}

const base: VectorShape = {
  curve: "DSTU_PB_257",
  ukm: true,
  originator: "key",
  cipher: "ctr",
  zeros: "any",
  rule: "all",
  proves: "dynamic agreement, ukm, 257-bit curve, gamma mode",
};

export const vectorShapes: Record<string, VectorShape> = {
  ".": base,
  "no-ukm": { ...base, ukm: false, proves: "no ukm (as in the real sample)" },
  "static-issuer-serial": {
    ...base,
    originator: "issuer",
    proves: "static agreement, the bank's encryption certificate named by issuer and serial number",
  },
  "static-key-id": {
    ...base,
    originator: "keyid",
    ukm: false,
    proves: "static agreement, the bank's encryption certificate named by subject key id, no ukm",
  },
  "static-in-envelope": {
    ...base,
    originator: "issuer",
    carried: true,
    proves: "static agreement, the bank's encryption certificate in the envelope's originatorInfo, `cert` another",
  },
  "curve-431": {
    ...base,
    curve: "DSTU_PB_431",
    ukm: false,
    proves: "the 431-bit curve (the real sample's 54-byte key)",
  },
  "curve-307": { ...base, curve: "DSTU_PB_307", proves: "the 307-bit curve" },
  cfb: { ...base, cipher: "cfb", proves: "GOST 28147 CFB content (1.2.804.2.1.1.1.1.1.1.3)" },
  "zz-one-zero": { ...base, zeros: "1", proves: "a shared x with exactly one leading zero byte" },
  "zz-two-zeros": { ...base, zeros: "2", proves: "a shared x with two leading zero bytes, all dropped (cryptonite)" },
  "zz-two-zeros-strip-one": {
    ...base,
    zeros: "2",
    rule: "one",
    proves: "a shared x with two leading zero bytes, one dropped (a jkurwa-based sender)",
  },
};
