/// <reference path="./dstu-modules.d.ts" />
// Certificate revocation lists (RFC 5280 §5.1) for Diia signers' CAs. jkurwa
// parses certificates but not CRLs; the CRL model is built here from jkurwa's
// own RFC 3280 pieces with asn1.js, and its signature is checked the way
// jkurwa's Certificate.verifySignature checks a certificate's.
import asn1 from "asn1.js";
import type { Certificate } from "jkurwa";
import { AlgorithmIdentifier, CertificateSerialNumber, Extensions, Name, Time } from "jkurwa/lib/spec/rfc3280.js";
import { gost34311 } from "./gost-hash.ts";

interface TimeObject {
  type: string;
  value: number;
}

/** A serial number as asn1.js gives it (a bn.js number). */
interface SerialObject {
  toString(base: number): string;
}

export interface CertificateListObject {
  tbsCertList: {
    version?: number;
    signature: { algorithm: string };
    issuer: unknown;
    thisUpdate: TimeObject;
    nextUpdate?: TimeObject;
    revokedCertificates?: { userCertificate: SerialObject; revocationDate: TimeObject }[];
  };
  signatureAlgorithm: { algorithm: string };
  signatureValue: { unused: number; data: Buffer };
}

const RevokedCertificate = asn1.define("RevokedCertificate", function () {
  this.seq().obj(
    this.key("userCertificate").use(CertificateSerialNumber),
    this.key("revocationDate").use(Time),
    this.key("crlEntryExtensions").optional().use(Extensions),
  );
});

/** The signed part of a CRL; exported so the sandbox CA can issue CRLs. */
export const TBSCertList = asn1.define<CertificateListObject["tbsCertList"]>("TBSCertList", function () {
  this.seq().obj(
    this.key("version").optional().int(),
    this.key("signature").use(AlgorithmIdentifier),
    this.key("issuer").use(Name),
    this.key("thisUpdate").use(Time),
    this.key("nextUpdate").optional().use(Time),
    this.key("revokedCertificates").optional().seqof(RevokedCertificate),
    this.key("crlExtensions").optional().explicit(0).use(Extensions),
  );
});

/** CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signatureValue BIT STRING }. */
export const CertificateList = asn1.define<CertificateListObject>("CertificateList", function () {
  this.seq().obj(
    this.key("tbsCertList").use(TBSCertList),
    this.key("signatureAlgorithm").use(AlgorithmIdentifier),
    this.key("signatureValue").bitstr(),
  );
});

/** A CRL that cannot be used; the message names the problem. */
export class CrlError extends Error {
  override name = "CrlError";
}

/** A CRL whose signature its issuing CA's key verified. */
export interface VerifiedCrl {
  issuer: Certificate;
  thisUpdate: number;
  /** Absent in a CRL that promises no next one: then it is never current past the grace. */
  nextUpdate: number | undefined;
  /** Revoked serial numbers, lower-case hex as jkurwa prints a certificate's serial. */
  revokedSerials: Set<string>;
}

/** One DER element's header: where its content starts and ends. */
function derElement(der: Buffer, offset: number): { start: number; end: number } {
  const first = der[offset + 1] ?? 0;
  if (first < 0x80) return { start: offset + 2, end: offset + 2 + first };
  const lengthBytes = first & 0x7f;
  if (lengthBytes < 1 || lengthBytes > 4) throw new CrlError("has a malformed length");
  let length = 0;
  for (let index = 0; index < lengthBytes; index += 1) length = length * 256 + (der[offset + 2 + index] ?? 0);
  const start = offset + 2 + lengthBytes;
  return { start, end: start + length };
}

/**
 * The exact signed bytes of a SEQUENCE { tbs, algorithm, signature } (a CRL's tbsCertList, an OCSP answer's
 * tbsResponseData) as sent, not a re-encoding that could differ.
 */
export function signedBytes(der: Buffer): Buffer {
  const outer = derElement(der, 0);
  const tbs = derElement(der, outer.start);
  if (tbs.end > der.length) throw new CrlError("is truncated");
  return der.subarray(outer.start, tbs.end);
}

const pemCrl = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/;

/** A CRL file's bytes, DER or PEM. */
export function crlDer(bytes: Buffer): Buffer {
  const text = bytes.toString("latin1");
  const pem = pemCrl.exec(text);
  return pem ? Buffer.from((pem[1] ?? "").replace(/\s+/g, ""), "base64") : bytes;
}

function decode(der: Buffer): CertificateListObject {
  try {
    return CertificateList.decode(der, "der");
  } catch {
    throw new CrlError("cannot be parsed as a CRL");
  }
}

function signedBy(der: Buffer, crl: CertificateListObject, ca: Certificate): boolean {
  if (crl.signatureAlgorithm.algorithm !== "Dstu4145le") return false;
  try {
    return ca.canUseFor("ca") && ca.pubkey_unpack().verify(gost34311(signedBytes(der)), crl.signatureValue.data);
  } catch {
    return false;
  }
}

/** Parses a CRL and finds which configured CA signed it; refuses one no configured CA signed. */
export function verifyCrl(bytes: Buffer, authorities: Certificate[]): VerifiedCrl {
  const der = crlDer(bytes);
  const crl = decode(der);
  const issuer = authorities.find((ca) => signedBy(der, crl, ca));
  if (!issuer) throw new CrlError("is not signed by any configured Diia CA (tampered, or from an unknown issuer)");
  const { thisUpdate, nextUpdate, revokedCertificates = [] } = crl.tbsCertList;
  return {
    issuer,
    thisUpdate: thisUpdate.value,
    nextUpdate: nextUpdate?.value,
    revokedSerials: new Set(revokedCertificates.map((entry) => entry.userCertificate.toString(16))),
  };
}
