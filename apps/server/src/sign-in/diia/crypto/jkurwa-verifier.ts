/// <reference path="./dstu-modules.d.ts" />
import type { Certificate } from "jkurwa";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import { readSigner } from "./certificate-identity.ts";
import type { RevocationChecker } from "./crl-store.ts";
import { gost34311 } from "./gost-hash.ts";
import { type ParsedSignature, parseSignedMessage } from "./signed-message.ts";
import type { DiiaSignatureVerifier, SignatureCheck, SignatureCheckInput, SignatureFailure } from "./verifier.ts";

const hashes = { Dstu4145le: (data: Uint8Array) => gost34311(data) };

/**
 * One check's parsed signature, with `issuedBy` answered once per pair: the chain and the revocation checks both ask
 * which CA issued the signer, and each answer is a DSTU signature verification (some 10 ms of a core in
 * JavaScript, on the event loop): asked twice it cost a third of a Diia callback's CPU (issue 80).
 */
type Parsed = ParsedSignature & { issuedBy(certificate: Certificate, ca: Certificate): boolean };

function withIssuedByOnce(parsed: ParsedSignature): Parsed {
  const answers = new Map<Certificate, Map<Certificate, boolean>>();
  return {
    ...parsed,
    issuedBy(certificate, ca) {
      const byCa = answers.get(certificate) ?? new Map<Certificate, boolean>();
      answers.set(certificate, byCa);
      const known = byCa.get(ca);
      if (known !== undefined) return known;
      const answer = issuedBy(certificate, ca);
      byCa.set(ca, answer);
      return answer;
    },
  };
}

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
  /** The CAs in the order the revocation check looks for the signer's issuer (signatureAndChain names it so). */
  readonly #authorities: Certificate[];

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
    this.#authorities = [...trustAnchors, ...intermediates];
  }

  #issuerOf(parsed: Parsed, now: Date): Certificate | undefined {
    return this.#authorities.find((ca) => isValidAnchor(ca, now) && parsed.issuedBy(parsed.signer, ca));
  }

  /** Whether the certificate leads to a trust anchor through valid CAs (an intermediate alone proves nothing). */
  #leadsToAnchor(parsed: Parsed, certificate: Certificate, now: Date, hops: number): boolean {
    if (this.#anchors.some((anchor) => isValidAnchor(anchor, now) && parsed.issuedBy(certificate, anchor))) return true;
    if (hops >= maxChainLength) return false;
    return this.#intermediates.some(
      (intermediate) =>
        intermediate !== certificate &&
        isValidAnchor(intermediate, now) &&
        parsed.issuedBy(certificate, intermediate) &&
        this.#leadsToAnchor(parsed, intermediate, now, hops + 1),
    );
  }

  #chainsToAnchor: Check = (parsed, { now }) =>
    this.#leadsToAnchor(parsed, parsed.signer, now, 0) ? undefined : "untrusted_certificate";

  /** The signer's certificate is not on its issuer's CRL, and that CRL is current (else: fail closed). */
  #notRevoked: Check = (parsed, { now }) => {
    if (!this.#revocation) return undefined;
    const issuer = this.#issuerOf(parsed, now);
    const status = issuer ? this.#revocation.status(parsed.signer, issuer, now) : "unknown";
    if (status === "revoked") return "certificate_revoked";
    return status === "unknown" ? "revocation_unknown" : undefined;
  };

  // Order matters only for which reason is reported first; every check must pass. The first three are the DSTU
  // signature verifications (signatureAndChain: a worker thread's part, threaded-verifier.ts); the rest are cheap.
  readonly #signatureChecks: [string, Check][] = [
    ["digest of our request", digestIsOfOurRequest],
    ["signature by the signer's key", signatureMatchesSignerKey],
    ["chain to a trusted CA", this.#chainsToAnchor],
  ];
  readonly #otherChecks: [string, Check][] = [
    ["revocation", this.#notRevoked],
    ["certificate valid now", certificateValidNow],
    ["key usage: signing", signerMayUseKeyForSigning],
    ["RNOKPP and name", signerHasTaxId],
  ];
  readonly #checks: [string, Check][] = [...this.#signatureChecks, ...this.#otherChecks];

  verify(input: SignatureCheckInput): SignatureCheck {
    return this.trace(input).result;
  }

  /**
   * The signature and its chain (each a DSTU verification in JavaScript): a refusal, or which CA issued the signer
   * (its index among the anchors then the intermediates, -1 for none valid now). Run in a worker thread, so the
   * event loop never waits on it; afterSignatureAndChain finishes the check where the revocation stores live.
   */
  signatureAndChain(
    input: SignatureCheckInput,
  ): { ok: false; reason: SignatureFailure } | { ok: true; issuer: number } {
    const parsed = this.#parse(input);
    if ("reason" in parsed) return { ok: false, reason: parsed.reason };
    for (const [, check] of this.#signatureChecks) {
      const failure = check(parsed, input);
      if (failure) return { ok: false, reason: failure };
    }
    const issuer = this.#issuerOf(parsed, input.now);
    return { ok: true, issuer: issuer ? this.#authorities.indexOf(issuer) : -1 };
  }

  /** The rest of verify, once signatureAndChain passed (elsewhere) and named the signer's issuer. */
  afterSignatureAndChain(input: SignatureCheckInput, issuerIndex: number): SignatureCheck {
    const parsed = this.#parse(input);
    if ("reason" in parsed) return { ok: false, reason: parsed.reason };
    const issuer = this.#authorities[issuerIndex];
    // What signatureAndChain found, not verified again here: the signer's issuer and nothing else.
    const known: Parsed = { ...parsed, issuedBy: (certificate, ca) => certificate === parsed.signer && ca === issuer };
    for (const [, check] of this.#otherChecks) {
      const failure = check(known, input);
      if (failure) return { ok: false, reason: failure };
    }
    const signer = readSigner(parsed.signer);
    return signer ? { ok: true, signer } : { ok: false, reason: "no_tax_id" };
  }

  #parse(input: SignatureCheckInput): Parsed | { reason: SignatureFailure } {
    const read = parseSignedMessage(input.signature, this.#configured);
    if (typeof read !== "string") return withIssuedByOnce(read);
    return { reason: read === "signer_certificate_not_found" ? "signer_certificate_absent" : "malformed" };
  }

  /** Every step's result up to the first that fails (the same checks as verify, for check-callback). */
  trace(input: SignatureCheckInput): { result: SignatureCheck; steps: TraceStep[] } {
    const read = parseSignedMessage(input.signature, this.#configured);
    if (typeof read === "string") {
      const failedStep = read === "not_signed_data" ? "parse" : "signer's certificate";
      // A signature without its signer's certificate is well formed: it cannot be checked, and says so.
      const reason = read === "signer_certificate_not_found" ? "signer_certificate_absent" : "malformed";
      return { result: { ok: false, reason }, steps: [{ step: failedStep, ok: false, detail: read }] };
    }
    const parsed = withIssuedByOnce(read);
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
