/// <reference types="@kpi-id/server/dstu-modules" />
// The stand-in's test public-key infrastructure: a test qualified CA and
// personal DSTU 4145 keys with certificates shaped like real Ukrainian
// qualified certificates (RNOKPP in the subject serialNumber as TINUA-… and
// as DRFO code in SubjectDirectoryAttributes, OID 1.2.804.2.1.1.1.11.1.4.1.1).

import { CertificateList, TBSCertList } from "@kpi-id/server/diia-crl";
import gost89 from "gost89";
import jkurwa, { type Certificate, type Priv, type TbsCertificate } from "jkurwa";

const curveName = "DSTU_PB_257";
const hash = (data: Uint8Array): Buffer => gost89.gosthash(data);
const yearMs = 365 * 24 * 60 * 60 * 1000;

/** Minimal DER writer: tag, length, content. */
export function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  const header =
    length < 0x80
      ? Buffer.from([tag, length])
      : length < 0x100
        ? Buffer.from([tag, 0x81, length])
        : Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  return Buffer.concat([header, content]);
}

// 1.2.804.2.1.1.1.11.1.4.1.1: the DRFO (RNOKPP) code of a natural person.
const drfoOid = Buffer.from("2a862402010101 0b01040101".replace(/ /g, ""), "hex");
// 1.2.804.2.1.1.1.11.1.4.2.1: the EDRPOU code of an organisation (a bank's, for BankID).
const edrpouOid = Buffer.from("2a862402010101 0b01040201".replace(/ /g, ""), "hex");

/** SubjectDirectoryAttributes ::= SEQUENCE OF Attribute { drfo or edrpou, SET { PrintableString } }. */
function subjectDirectoryAttributes(code: string, oid: Buffer): Buffer {
  const value = der(0x31, der(0x13, Buffer.from(code, "ascii")));
  return der(0x30, der(0x30, Buffer.concat([der(0x06, oid), value])));
}

const ocspSigningOid = Buffer.from("2b06010505070309", "hex");
const basicConstraintsCa = der(0x30, Buffer.from([0x01, 0x01, 0xff]));
const keyUsageCa = "\x03\x02\x01\x06"; // keyCertSign, cRLSign
const keyUsageSigner = "\x03\x02\x06\xc0"; // digitalSignature, nonRepudiation
const keyUsageKeyAgreement = "\x03\x02\x03\x08"; // keyAgreement only, as BankID NBU requires of encryption certificates

export interface Party {
  key: Priv;
  certificate: Certificate;
  name: Record<string, string>;
}

interface IssueOptions {
  issuer: { key: Priv; name: Record<string, string> };
  subjectKey: Priv;
  subjectName: Record<string, string>;
  serial: number;
  valid: { from: number; to: number };
  ca: boolean;
  taxId?: string;
  /** An organisation's EDRPOU code (a bank's certificates carry it). */
  organisationCode?: string;
  /** An encryption (Diffie-Hellman) certificate rather than a signing one. */
  keyAgreement?: boolean;
  /** A CA's delegated OCSP signer: extendedKeyUsage id-kp-OCSPSigning. */
  ocspSigning?: boolean;
}

function keyUsageOf(options: IssueOptions): string {
  if (options.ca) return keyUsageCa;
  return options.keyAgreement ? keyUsageKeyAgreement : keyUsageSigner;
}

function extensions(options: IssueOptions): TbsCertificate["extensions"] {
  const { issuer, subjectKey, ca, taxId, organisationCode } = options;
  const list: TbsCertificate["extensions"] = [
    { extnID: "subjectKeyIdentifier", extnValue: der(0x04, subjectKey.pub().keyid({ hash })) },
    {
      extnID: "authorityKeyIdentifier",
      extnValue: der(0x30, der(0x80, issuer.key.pub().keyid({ hash }))),
    },
    { extnID: "keyUsage", extnValue: Buffer.from(keyUsageOf(options), "binary"), critical: true },
  ];
  if (ca) list.push({ extnID: "basicConstraints", extnValue: basicConstraintsCa, critical: true });
  // SEQUENCE { 1.3.6.1.5.5.7.3.9 id-kp-OCSPSigning }
  if (options.ocspSigning) list.push({ extnID: "extendedKeyUsage", extnValue: der(0x30, der(0x06, ocspSigningOid)) });
  if (taxId) list.push({ extnID: "subjectDirectoryAttributes", extnValue: subjectDirectoryAttributes(taxId, drfoOid) });
  else if (organisationCode)
    list.push({
      extnID: "subjectDirectoryAttributes",
      extnValue: subjectDirectoryAttributes(organisationCode, edrpouOid),
    });
  return list;
}

/** Builds a certificate and signs it with the issuer's key, as a CA does. */
export function issueCertificate(options: IssueOptions): Certificate {
  const { issuer, subjectKey } = options;
  const tbs = jkurwa.Certificate.createTBS({
    serial: options.serial,
    pubkey: subjectKey.pub(),
    algorithm: issuer.key.algorithm,
    curve: subjectKey.curve.name(),
    issuer: issuer.name,
    subject: options.subjectName,
    valid: options.valid,
    usage: keyUsageOf(options),
    hash,
  });
  tbs.extensions = extensions(options);
  const signature = issuer.key.sign(hash(jkurwa.Certificate.encodeTBS(tbs)), "le");
  const built = new jkurwa.Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: { algorithm: issuer.key.algorithm },
    signature: { unused: 0, data: der(0x04, signature) },
  });
  // Round-trip through DER so the object is exactly what a verifier will parse.
  return jkurwa.Certificate.from_asn1(built.as_asn1());
}

/** A DSTU 4145 key on the sandbox's curve, or on another (the BankID vectors use 307 and 431 bits). */
export function newKey(curve = curveName): Priv {
  return jkurwa.std_curve(curve).keygen();
}

let nextSerial = Math.floor(Date.now() / 1000) % 0x7fffff;

/** A test CA valid from a day ago for `years`: self-signed when no issuer is given. */
function newCertificateAuthority(commonName: string, years: number, now: number, issuer?: Party): Party {
  const key = newKey();
  const name = { organizationName: "KPI ID sandbox", commonName, serialNumber: "UA-00000000", countryName: "UA" };
  const certificate = issueCertificate({
    issuer: issuer ? { key: issuer.key, name: issuer.name } : { key, name },
    subjectKey: key,
    subjectName: name,
    serial: nextSerial++,
    valid: { from: now - 24 * 3600 * 1000, to: now + years * yearMs },
    ca: true,
  });
  return { key, certificate, name };
}

/** A self-signed test CA, valid from a day ago for ten years. */
export function createCertificateAuthority(commonName: string, now = Date.now()): Party {
  return newCertificateAuthority(commonName, 10, now);
}

/** A CA whose certificate another CA issued: signers under it chain to the root through it. */
export function createIntermediateCa(root: Party, commonName: string, now = Date.now()): Party {
  return newCertificateAuthority(commonName, 5, now, root);
}

export interface PersonIdentity {
  taxId: string;
  surname: string;
  givenName: string;
  patronymic: string;
}

/** A personal signing certificate holding the RNOKPP where qualified certificates hold it. */
export function issuePersonCertificate(
  ca: Party,
  person: PersonIdentity,
  valid: { from: number; to: number } = { from: Date.now() - 3600 * 1000, to: Date.now() + 2 * yearMs },
): Party {
  const key = newKey();
  const given = `${person.givenName} ${person.patronymic}`.trim();
  const name = {
    commonName: `${person.surname} ${given}`,
    surname: person.surname,
    givenName: given,
    serialNumber: `TINUA-${person.taxId}`,
    countryName: "UA",
  };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial: nextSerial++,
    valid,
    ca: false,
    taxId: person.taxId,
  });
  return { key, certificate, name };
}

/** A certificate the CA issues to sign OCSP answers on its behalf (RFC 6960 §4.2.2.2, delegated responder). */
export function issueOcspSigner(ca: Party, valid: { from: number; to: number }): Party {
  const key = newKey();
  const name = {
    organizationName: "KPI ID sandbox",
    commonName: `OCSP ${ca.name.commonName ?? ""}`,
    countryName: "UA",
  };
  const certificate = issueCertificate({
    issuer: { key: ca.key, name: ca.name },
    subjectKey: key,
    subjectName: name,
    serial: nextSerial++,
    valid,
    ca: false,
    ocspSigning: true,
  });
  return { key, certificate, name };
}

/** A CRL (RFC 5280 §5.1, DER) the CA signs, listing the given certificates as revoked. */
export function issueCrl(ca: Party, revoked: Certificate[], times: { thisUpdate: number; nextUpdate: number }): Buffer {
  const tbsCertList = {
    version: 1, // v2
    signature: { algorithm: ca.key.algorithm },
    issuer: ca.certificate.ob.tbsCertificate.subject,
    thisUpdate: { type: "utcTime", value: times.thisUpdate },
    nextUpdate: { type: "utcTime", value: times.nextUpdate },
    revokedCertificates: revoked.map((certificate) => ({
      userCertificate: certificate.ob.tbsCertificate.serialNumber as { toString(base: number): string },
      revocationDate: { type: "utcTime", value: times.thisUpdate },
    })),
  };
  const signature = ca.key.sign(hash(TBSCertList.encode(tbsCertList, "der")), "le");
  return CertificateList.encode(
    {
      tbsCertList,
      signatureAlgorithm: { algorithm: ca.key.algorithm },
      signatureValue: { unused: 0, data: der(0x04, signature) },
    },
    "der",
  );
}

/**
 * What the Diia app sends: a detached CAdES signature whose message digest is
 * the hash Diia was given (the partner sent base64 of GOST 34.311 of its own
 * request id), so the partner verifies it against its original request id.
 */
export function signRequestHash(signer: Party, hashedRequestId: string): Buffer {
  const message = new jkurwa.models.Message({
    type: "signedData",
    cert: signer.certificate,
    dataHash: Buffer.from(hashedRequestId, "base64"),
    hash,
    signer: signer.key,
  });
  return message.as_asn1();
}
