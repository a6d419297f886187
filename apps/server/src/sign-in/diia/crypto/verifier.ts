import type { CheckQueue } from "../../../platform/crypto/check-queue.ts";

/** The signer Diia vouches for, read from a verified qualified certificate. */
export interface DiiaSigner {
  /** RNOKPP (tax id). Never log it. */
  taxId: string;
  fullName: string;
}

export const signatureFailures = [
  "malformed",
  // The CMS carries no certificate of its signer and none configured is it: nothing to check it against.
  "signer_certificate_absent",
  "digest_mismatch",
  "bad_signature",
  "untrusted_certificate",
  "certificate_revoked",
  "revocation_unknown",
  "certificate_not_valid_now",
  "not_a_signing_certificate",
  "no_tax_id",
] as const;
export type SignatureFailure = (typeof signatureFailures)[number];

export type SignatureCheck = { ok: true; signer: DiiaSigner } | { ok: false; reason: SignatureFailure };

export interface SignatureCheckInput {
  /** DER of the CMS SignedData Diia delivered. */
  signature: Buffer;
  /** Our own request id; the signature is detached over it. */
  requestId: string;
  /**
   * The digest to expect instead of GOST 34.311 of requestId: only `diia check-callback` without
   * --request-id, which knows only the hash the callback names.
   */
  requestDigest?: Buffer;
  now: Date;
}

/** Checks a Diia ID signature; the DSTU implementation sits behind this (the instance's, in a worker thread). */
export interface DiiaSignatureVerifier {
  verify(input: SignatureCheckInput): SignatureCheck | Promise<SignatureCheck>;
  /** Stops what it runs besides the event loop (threaded-verifier.ts's thread), when the instance closes. */
  close?(): Promise<void>;
  /** The line its checks take turns in, for the metrics (threaded-verifier.ts). */
  readonly queue?: CheckQueue;
}
