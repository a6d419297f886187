/// <reference path="./dstu-modules.d.ts" />
// OCSP (RFC 6960) for Diia signers' certificates, beside the CRLs (crl.ts). The structures are jkurwa's own
// asn1.js models (jkurwa/lib/spec/rfc2560-ocsp.js, what jkurwa uses against Ukrainian responders); the
// signature is checked with the same DSTU 4145 / GOST 34.311 code as a CRL's, over the exact bytes sent.
import { createHash } from "node:crypto";
import asn1 from "asn1.js";
import jkurwa, { type Certificate, type CertificateObject } from "jkurwa";
import { BasicOCSPResponse, OCSPRequest, OCSPResponse } from "jkurwa/lib/spec/rfc2560-ocsp.js";
import { ocspAnswerWithoutNextUpdateMs } from "../../../model/diia/ocsp-answers.ts";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import { signedBytes } from "./crl.ts";
import { gost34311 } from "./gost-hash.ts";
import { issuedBy } from "./jkurwa-verifier.ts";

/** An OCSP answer that cannot be used; the message names the problem. */
export class OcspError extends Error {
  override name = "OcspError";
}

export type OcspCertStatus = "good" | "revoked" | "unknown";

/** An answer about one certificate whose signature the CA (or its delegated OCSP signer) made. */
export interface VerifiedOcspAnswer {
  status: OcspCertStatus;
  thisUpdate: number;
  /** Absent when the responder promises none: then the answer counts for ocspAnswerWithoutNextUpdateMs. */
  nextUpdate: number | undefined;
  /** "issuer": the CA's own key; "delegated": a certificate the CA issued for id-kp-OCSPSigning. */
  signedBy: "issuer" | "delegated";
}

/** A responder's clock may run this far ahead of ours. */
const clockSkewMs = 5 * 60 * 1000;

interface SerialObject {
  toString(base: number): string;
}
interface CertIdObject {
  hashAlgorithm: { algorithm: string | number[] };
  issuerNameHash: Buffer;
  issuerKeyHash: Buffer;
  serialNumber: SerialObject;
}
interface SingleResponseObject {
  certID: CertIdObject;
  certStatus: { type: string };
  thisUpdate: number;
  nextUpdate?: number;
}
interface BasicResponseObject {
  tbsResponseData: { producedAt: number; responses: SingleResponseObject[] };
  signatureAlgorithm: { algorithm: string };
  signature: { unused: number; data: Buffer };
  certs?: CertificateObject[];
}
interface OcspResponseObject {
  responseStatus: string;
  responseBytes?: { responseType: number[]; response: Buffer };
}

const basicResponseType = "1 3 6 1 5 5 7 48 1 1";
const sha1Algorithm = "1 3 14 3 2 26";
const ocspAccessMethod = "1 3 6 1 5 5 7 48 1";

const AccessDescription = asn1.define("AccessDescription", function () {
  this.seq().obj(this.key("accessMethod").objid(), this.key("accessLocation").any());
});
const AuthorityInfoAccess = asn1.define<{ accessMethod: number[]; accessLocation: Buffer }[]>("AIA", function () {
  this.seqof(AccessDescription);
});

/** The OCSP responder addresses (http or https) a certificate's Authority Information Access names. */
export function ocspAddressesOf(certificate: Certificate): string[] {
  const extension = certificate.ob.tbsCertificate.extensions?.find((each) => each.extnID === "authorityInfoAccess");
  if (!extension) return [];
  try {
    return AuthorityInfoAccess.decode(extension.extnValue, "der")
      .filter((each) => each.accessMethod.join(" ") === ocspAccessMethod && each.accessLocation[0] === 0x86)
      .map((each) => each.accessLocation.subarray(2, 2 + (each.accessLocation[1] ?? 0)).toString("latin1"))
      .filter((address) => /^https?:\/\//i.test(address));
  } catch {
    return [];
  }
}

/**
 * The OCSP request for one certificate. The CertID is GOST 34.311 of the issuer's name and, as Ukrainian
 * responders (and jkurwa) name the issuer's key, its key identifier (the signer's authorityKeyIdentifier).
 * No nonce: answers are cached and shared, their freshness is thisUpdate/nextUpdate (RFC 5019).
 */
export function ocspRequest(signer: Certificate): Buffer {
  const reqCert = {
    hashAlgorithm: { algorithm: "Gost34311" },
    issuerNameHash: gost34311(signer.name_asn1()),
    issuerKeyHash: signer.extension.authorityKeyIdentifier ?? Buffer.alloc(0),
    serialNumber: signer.ob.tbsCertificate.serialNumber,
  };
  return OCSPRequest.encode({ tbsRequest: { requestList: [{ reqCert }] } }, "der");
}

function hashFor(algorithm: string | number[]): ((data: Uint8Array) => Buffer) | undefined {
  const name = Array.isArray(algorithm) ? algorithm.join(" ") : algorithm;
  if (name === "Gost34311") return gost34311;
  if (name === sha1Algorithm) return (data) => createHash("sha1").update(data).digest();
  return undefined;
}

/** The issuer's public key bits, as RFC 6960's issuerKeyHash hashes them. */
function publicKeyBits(issuer: Certificate): Buffer {
  const info = issuer.ob.tbsCertificate.subjectPublicKeyInfo as { subjectPublicKey: { data: Buffer } };
  return info.subjectPublicKey.data;
}

/**
 * Whether a CertID names this signer: same serial, the issuer's name hash, and the issuer's key either as
 * RFC 6960 hashes it (Bouncy Castle, most responders) or as its key identifier (Ukrainian responders).
 */
function namesSigner(id: CertIdObject, signer: Certificate, issuer: Certificate): boolean {
  const hash = hashFor(id.hashAlgorithm.algorithm);
  if (!hash || id.serialNumber.toString(16) !== signer.serial.toString(16)) return false;
  if (!sameBytes(id.issuerNameHash, hash(signer.name_asn1()))) return false;
  const keyId = issuer.extension.subjectKeyIdentifier;
  return sameBytes(id.issuerKeyHash, hash(publicKeyBits(issuer))) || (!!keyId && sameBytes(id.issuerKeyHash, keyId));
}

function decodeBasic(bytes: Buffer): { der: Buffer; basic: BasicResponseObject } {
  let outer: OcspResponseObject;
  try {
    outer = OCSPResponse.decode(bytes, "der") as OcspResponseObject;
  } catch {
    throw new OcspError("cannot be parsed as an OCSP response");
  }
  if (outer.responseStatus !== "successful") throw new OcspError(`says ${outer.responseStatus}`);
  const body = outer.responseBytes;
  if (!body || body.responseType.join(" ") !== basicResponseType) throw new OcspError("is not a basic OCSP response");
  try {
    return { der: body.response, basic: BasicOCSPResponse.decode(body.response, "der") as BasicResponseObject };
  } catch {
    throw new OcspError("holds a basic response that cannot be parsed");
  }
}

function signatureBy(key: Certificate, der: Buffer, basic: BasicResponseObject): boolean {
  if (basic.signatureAlgorithm.algorithm !== "Dstu4145le") return false;
  try {
    return key.pubkey_unpack().verify(gost34311(signedBytes(der)), basic.signature.data);
  } catch {
    return false;
  }
}

/** A certificate in the answer that the issuer made for signing OCSP answers, valid now. */
function isDelegatedResponder(candidate: Certificate, issuer: Certificate, now: Date): boolean {
  try {
    return (
      !!candidate.extension.extendedKeyUsage &&
      candidate.canUseFor("ocspSigning") &&
      now.getTime() >= candidate.valid.from &&
      now.getTime() < candidate.valid.to &&
      issuedBy(candidate, issuer)
    );
  } catch {
    return false;
  }
}

function whoSigned(der: Buffer, basic: BasicResponseObject, issuer: Certificate, now: Date): "issuer" | "delegated" {
  if (signatureBy(issuer, der, basic)) return "issuer";
  const delegated = (basic.certs ?? [])
    .map((object) => new jkurwa.Certificate(object))
    .filter((candidate) => isDelegatedResponder(candidate, issuer, now));
  if (delegated.some((responder) => signatureBy(responder, der, basic))) return "delegated";
  throw new OcspError("is not signed by the signer's CA nor by an OCSP signer it delegated (tampered, or foreign)");
}

/**
 * Reads an OCSP response about `signer` and checks that its CA, or a certificate that CA issued for
 * id-kp-OCSPSigning, signed it; refuses any other, an answer about another certificate, and one from the future.
 */
export function verifyOcspResponse(
  bytes: Buffer,
  signer: Certificate,
  issuer: Certificate,
  now: Date,
): VerifiedOcspAnswer {
  const { der, basic } = decodeBasic(bytes);
  const signedBy = whoSigned(der, basic, issuer, now);
  const single = basic.tbsResponseData.responses.find((each) => namesSigner(each.certID, signer, issuer));
  if (!single) throw new OcspError("does not answer for this certificate");
  if (single.thisUpdate > now.getTime() + clockSkewMs) throw new OcspError("has a thisUpdate in the future");
  if (single.nextUpdate !== undefined && single.nextUpdate < single.thisUpdate)
    throw new OcspError("has a nextUpdate before its thisUpdate");
  const type = single.certStatus.type;
  const status: OcspCertStatus = type === "good" || type === "revoked" ? type : "unknown";
  return { status, thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate, signedBy };
}

/** Until when an answer counts as current (before any grace). */
export function currentUntil(answer: { thisUpdate: number; nextUpdate: number | undefined }): number {
  return answer.nextUpdate ?? answer.thisUpdate + ocspAnswerWithoutNextUpdateMs;
}

/** The cache key of a certificate: its issuer's key id and its serial (what a CertID names). */
export function certificateKey(signer: Certificate): string {
  const issuerKey = signer.extension.authorityKeyIdentifier?.toString("hex") ?? signer.issuerDN();
  return `${issuerKey}:${signer.serial.toString(16)}`;
}
