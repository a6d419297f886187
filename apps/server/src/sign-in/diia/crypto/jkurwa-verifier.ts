/// <reference path="./dstu-modules.d.ts" />
import type { Certificate } from "jkurwa";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import { readSigner } from "./certificate-identity.ts";
import type { RevocationChecker } from "./crl-store.ts";
import { gost34311 } from "./gost-hash.ts";
import { type ParsedSignature, parseSignedMessage } from "./signed-message.ts";
import type { DiiaSignatureVerifier, SignatureCheck, SignatureCheckInput, SignatureFailure } from "./verifier.ts";

const hashes = { Dstu4145le: (data: Uint8Array) => gost34311(data) };

type Parsed = ParsedSignature;

/** One named check; undefined means it passed. */
type Check = (parsed: Parsed, input: SignatureCheckInput) => SignatureFailure | undefined;

/** One step of a check as `diia check-callback` prints it. */
export interface TraceStep {
  step: string;
  ok: boolean;
  detail: string;
}

/** Bytes a message or certificate may lack (a missing one never matches), compared by the one comparison. */
function presentAndSame(left: Uint8Array | null | undefined, right: Uint8Array | null | undefined): boolean {
  return !!left && !!right && sameBytes(Buffer.from(left), Buffer.from(right));
}

const digestIsOfOurRequest: Check = ({ message }, { requestId, requestDigest }) =>
  presentAndSame(message.pattrs.messageDigest, requestDigest ?? gost34311(requestId)) ? undefined : "digest_mismatch";

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
  /** Where a signer's certificate absent from the CMS is looked up (by issuer and serial number). */
  readonly #configured: Certificate[];

  /**
   * Without a revocation checker (DIIA_CRLS unset) revocation is not checked. `signerCertificates`
   * (DIIA_SIGNER_CERTIFICATES) and the CAs are where a signer's certificate absent from the CMS is found.
   */
  constructor(
    trustAnchors: Certificate[],
    intermediates: Certificate[] = [],
    revocation?: RevocationChecker,
    signerCertificates: Certificate[] = [],
  ) {
    this.#anchors = trustAnchors;
    this.#intermediates = intermediates;
    this.#revocation = revocation;
    this.#configured = [...signerCertificates, ...intermediates, ...trustAnchors];
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
  readonly #checks: [string, Check][] = [
    ["digest of our request", digestIsOfOurRequest],
    ["signature by the signer's key", signatureMatchesSignerKey],
    ["chain to a trusted CA", this.#chainsToAnchor],
    ["revocation", this.#notRevoked],
    ["certificate valid now", certificateValidNow],
    ["key usage: signing", signerMayUseKeyForSigning],
    ["RNOKPP and name", signerHasTaxId],
  ];

  verify(input: SignatureCheckInput): SignatureCheck {
    return this.trace(input).result;
  }

  /** Every step's result up to the first that fails (the same checks as verify, for check-callback). */
  trace(input: SignatureCheckInput): { result: SignatureCheck; steps: TraceStep[] } {
    const parsed = parseSignedMessage(input.signature, this.#configured);
    if (typeof parsed === "string") {
      const failedStep = parsed === "not_signed_data" ? "parse" : "signer's certificate";
      // A signature without its signer's certificate is well formed: it cannot be checked, and says so.
      const reason = parsed === "signer_certificate_not_found" ? "signer_certificate_absent" : "malformed";
      return { result: { ok: false, reason }, steps: [{ step: failedStep, ok: false, detail: parsed }] };
    }
    const steps: TraceStep[] = [
      {
        step: "parse",
        ok: true,
        detail: `CMS SignedData; unsigned attributes: ${parsed.unsignedAttributes.join(", ") || "none"}`,
      },
      { step: "signer's certificate", ok: true, detail: parsed.signerSource },
    ];
    for (const [step, check] of this.#checks) {
      const failure = check(parsed, input);
      steps.push({
        step,
        ok: !failure,
        detail:
          failure ?? (step === "revocation" && !this.#revocation ? "not checked (no CRLs nor OCSP configured)" : "ok"),
      });
      if (failure) return { result: { ok: false, reason: failure }, steps };
    }
    const signer = readSigner(parsed.signer);
    return { result: signer ? { ok: true, signer } : { ok: false, reason: "no_tax_id" }, steps };
  }
}
