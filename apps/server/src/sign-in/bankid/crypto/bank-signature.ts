/// <reference path="../../diia/crypto/dstu-modules.d.ts" />
import jkurwa, { type Certificate, type Message } from "jkurwa";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import type { RevocationChecker, RevocationStatus } from "../../diia/crypto/crl-store.ts";
import { gost34311 } from "../../diia/crypto/gost-hash.ts";
import { issuedBy, isValidAnchor } from "../../diia/crypto/jkurwa-verifier.ts";
import { type SignatureFailure, signatureFailures } from "../../diia/crypto/verifier.ts";

// The bank's attached CMS SignedData inside a BankID envelope (DSTU 4145 over
// GOST 34.311): the content is what was signed, the signer's certificate leads
// to a configured qualified CA, is valid now, may sign, and is not revoked.

/**
 * Diia's signature failures but the tax id one (a bank's certificate is an organisation's) and the absent
 * signer's certificate (the bank's is taken from the SignedData, or the envelope is malformed).
 */
export type BankSignatureFailure = Exclude<SignatureFailure, "no_tax_id" | "signer_certificate_absent">;
export const bankSignatureFailures = signatureFailures.filter(
  (failure): failure is BankSignatureFailure => failure !== "no_tax_id" && failure !== "signer_certificate_absent",
);

export type BankSignatureCheck =
  | { ok: true; content: Buffer; signer: Certificate }
  | { ok: false; reason: BankSignatureFailure };

export interface BankTrust {
  anchors: Certificate[];
  intermediates: Certificate[];
  /** Absent: revocation is not checked (no CRLs configured). */
  revocation?: RevocationChecker;
}

const hashes = { Dstu4145le: (data: Uint8Array) => gost34311(data) };
/** Qualified signers sit under a root and at most a few intermediate CAs. */
const maxChainLength = 4;

interface Parsed {
  message: Message;
  signer: Certificate;
  content: Buffer;
}

function parse(signedData: Buffer): Parsed | undefined {
  try {
    const message = new jkurwa.models.Message(signedData);
    const [certificate] = message.info.certificate ?? [];
    const content = message.info.contentInfo.content;
    if (message.type !== "signedData" || message.info.signerInfos.length !== 1 || !certificate || !content)
      return undefined;
    return { message, signer: new jkurwa.Certificate(certificate), content: Buffer.from(content) };
  } catch {
    return undefined;
  }
}

/** The configured CA that issued `certificate`, when a chain of valid CAs leads from it to an anchor. */
export function issuerOf(certificate: Certificate, trust: BankTrust, now: Date, hops = 0): Certificate | undefined {
  const anchor = trust.anchors.find((ca) => isValidAnchor(ca, now) && issuedBy(certificate, ca));
  if (anchor || hops >= maxChainLength) return anchor;
  return trust.intermediates.find(
    (ca) =>
      ca !== certificate &&
      isValidAnchor(ca, now) &&
      issuedBy(certificate, ca) &&
      issuerOf(ca, trust, now, hops + 1) !== undefined,
  );
}

function signatureValid({ message, signer }: Parsed): boolean {
  if (signer.signatureAlgorithm !== "Dstu4145le") return false;
  try {
    return signer.pubkey_unpack().verify(message.mhash(hashes.Dstu4145le), message.signature, "le");
  } catch {
    return false;
  }
}

function maySign(signer: Certificate): boolean {
  try {
    return signer.canUseFor("sign");
  } catch {
    return false;
  }
}

/** What the CRLs' answer for the bank's signer makes of the signature (the envelope's thread: envelope-opener.ts). */
export function signerRevocationFailure(status: Exclude<RevocationStatus, "good">): BankSignatureFailure {
  return status === "revoked" ? "certificate_revoked" : "revocation_unknown";
}

export function checkBankSignature(signedData: Buffer, trust: BankTrust, now: Date): BankSignatureCheck {
  const parsed = parse(signedData);
  if (!parsed) return { ok: false, reason: "malformed" };
  const { message, signer, content } = parsed;
  const digest = message.pattrs.messageDigest;
  if (!digest || !sameBytes(Buffer.from(digest), gost34311(content))) return { ok: false, reason: "digest_mismatch" };
  if (!signatureValid(parsed)) return { ok: false, reason: "bad_signature" };
  const issuer = issuerOf(signer, trust, now);
  if (!issuer) return { ok: false, reason: "untrusted_certificate" };
  const status = trust.revocation?.status(signer, issuer, now) ?? "good";
  if (status !== "good") return { ok: false, reason: signerRevocationFailure(status) };
  if (now.getTime() < signer.valid.from || now.getTime() >= signer.valid.to)
    return { ok: false, reason: "certificate_not_valid_now" };
  if (!maySign(signer)) return { ok: false, reason: "not_a_signing_certificate" };
  return { ok: true, content, signer };
}
