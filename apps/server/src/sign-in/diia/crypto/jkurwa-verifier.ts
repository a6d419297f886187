/// <reference path="./dstu-modules.d.ts" />
import jkurwa, { type Certificate, type Message } from "jkurwa";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import { readSigner } from "./certificate-identity.ts";
import type { RevocationChecker } from "./crl-store.ts";
import { gost34311 } from "./gost-hash.ts";
import type { DiiaSignatureVerifier, SignatureCheck, SignatureCheckInput, SignatureFailure } from "./verifier.ts";

const hashes = { Dstu4145le: (data: Uint8Array) => gost34311(data) };

interface Parsed {
  message: Message;
  signer: Certificate;
}

/** One named check; undefined means it passed. */
type Check = (parsed: Parsed, input: SignatureCheckInput) => SignatureFailure | undefined;

/** The serial number the SignerInfo names its certificate by (issuerAndSerialNumber), as lower-case hex. */
function signerSerial(message: Message): string | undefined {
  const serial = message.info.signerInfos[0]?.sid.value.serialNumber;
  return typeof serial === "object" && serial !== null
    ? (serial as { toString(radix: number): string }).toString(16)
    : undefined;
}

/**
 * The signer's certificate is the one the SignerInfo names, wherever it sits among the CMS's certificates
 * (a CMS may carry its CAs too, in any order). Picking a wrong one could only fail the signature check.
 */
function parse(signature: Buffer): Parsed | undefined {
  try {
    const message = new jkurwa.models.Message(signature);
    if (message.type !== "signedData" || message.info.signerInfos.length !== 1) return undefined;
    const certificates = (message.info.certificate ?? []).map((each) => new jkurwa.Certificate(each));
    const serial = signerSerial(message);
    const signer =
      serial === undefined ? certificates[0] : certificates.find((each) => each.serial.toString(16) === serial);
    return signer ? { message, signer } : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes a message or certificate may lack (a missing one never matches), compared by the one comparison. */
function presentAndSame(left: Uint8Array | null | undefined, right: Uint8Array | null | undefined): boolean {
  return !!left && !!right && sameBytes(Buffer.from(left), Buffer.from(right));
}

const digestIsOfOurRequest: Check = ({ message }, { requestId }) =>
  presentAndSame(message.pattrs.messageDigest, gost34311(requestId)) ? undefined : "digest_mismatch";

const signatureMatchesSignerKey: Check = ({ message, signer }) => {
  if (signer.signatureAlgorithm !== "Dstu4145le") return "bad_signature";
  try {
    const signedAttributesHash = message.mhash(hashes.Dstu4145le);
    return signer.pubkey_unpack().verify(signedAttributesHash, message.signature, "le") ? undefined : "bad_signature";
  } catch {
    return "bad_signature";
  }
};

const signerMayUseKeyForSigning: Check = ({ signer }) => {
  try {
    return signer.canUseFor("sign") ? undefined : "not_a_signing_certificate";
  } catch {
    return "not_a_signing_certificate";
  }
};

const certificateValidNow: Check = ({ signer }, { now }) =>
  now.getTime() >= signer.valid.from && now.getTime() < signer.valid.to ? undefined : "certificate_not_valid_now";

const signerHasTaxId: Check = ({ signer }) => (readSigner(signer) ? undefined : "no_tax_id");

/** A CA certificate usable now: an anchor, or an intermediate on the way to one. */
export function isValidAnchor(anchor: Certificate, now: Date): boolean {
  try {
    return anchor.canUseFor("ca") && now.getTime() >= anchor.valid.from && now.getTime() < anchor.valid.to;
  } catch {
    return false;
  }
}

export function issuedBy(certificate: Certificate, anchor: Certificate): boolean {
  if (certificate.issuerDN() !== anchor.subjectDN()) return false;
  if (!presentAndSame(certificate.extension.authorityKeyIdentifier, anchor.extension.subjectKeyIdentifier))
    return false;
  try {
    return certificate.verifySignature(anchor.pubkey_unpack(), hashes);
  } catch {
    return false;
  }
}

/** Qualified signers sit under a root and at most a few intermediate CAs. */
const maxChainLength = 4;

/**
 * The Diia ID signature check on jkurwa + gost89: a detached CMS SignedData
 * (DSTU 4145 over GOST 34.311) whose message digest is the hash of our request
 * id, signed by a personal certificate that a configured CA issued, directly
 * or through configured intermediate CAs each issued by the next.
 */
export class JkurwaSignatureVerifier implements DiiaSignatureVerifier {
  readonly #anchors: Certificate[];
  readonly #intermediates: Certificate[];
  readonly #revocation: RevocationChecker | undefined;

  /** Without a revocation checker (DIIA_CRLS unset) revocation is not checked. */
  constructor(trustAnchors: Certificate[], intermediates: Certificate[] = [], revocation?: RevocationChecker) {
    this.#anchors = trustAnchors;
    this.#intermediates = intermediates;
    this.#revocation = revocation;
  }

  /** Whether the certificate leads to a trust anchor through valid CAs (an intermediate alone proves nothing). */
  #leadsToAnchor(certificate: Certificate, now: Date, hops: number): boolean {
    if (this.#anchors.some((anchor) => isValidAnchor(anchor, now) && issuedBy(certificate, anchor))) return true;
    if (hops >= maxChainLength) return false;
    return this.#intermediates.some(
      (intermediate) =>
        intermediate !== certificate &&
        isValidAnchor(intermediate, now) &&
        issuedBy(certificate, intermediate) &&
        this.#leadsToAnchor(intermediate, now, hops + 1),
    );
  }

  #chainsToAnchor: Check = ({ signer }, { now }) =>
    this.#leadsToAnchor(signer, now, 0) ? undefined : "untrusted_certificate";

  /** The signer's certificate is not on its issuer's CRL, and that CRL is current (else: fail closed). */
  #notRevoked: Check = ({ signer }, { now }) => {
    if (!this.#revocation) return undefined;
    const issuer = [...this.#anchors, ...this.#intermediates].find(
      (ca) => isValidAnchor(ca, now) && issuedBy(signer, ca),
    );
    const status = issuer ? this.#revocation.status(signer, issuer, now) : "unknown";
    if (status === "revoked") return "certificate_revoked";
    return status === "unknown" ? "revocation_unknown" : undefined;
  };

  // Order matters only for which reason is reported first; every check must pass.
  readonly #checks: Check[] = [
    digestIsOfOurRequest,
    signatureMatchesSignerKey,
    this.#chainsToAnchor,
    this.#notRevoked,
    certificateValidNow,
    signerMayUseKeyForSigning,
    signerHasTaxId,
  ];

  verify(input: SignatureCheckInput): SignatureCheck {
    const parsed = parse(input.signature);
    if (!parsed) return { ok: false, reason: "malformed" };
    for (const check of this.#checks) {
      const failure = check(parsed, input);
      if (failure) return { ok: false, reason: failure };
    }
    const signer = readSigner(parsed.signer);
    return signer ? { ok: true, signer } : { ok: false, reason: "no_tax_id" };
  }
}
