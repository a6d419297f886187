/// <reference path="./bankid-modules.d.ts" />
import "./dstu-curves.ts";
import { existsSync, readFileSync } from "node:fs";
import type { Certificate } from "jkurwa";
import { ConfigError } from "../../../platform/config/index.ts";
import { caCertificate } from "./ca-certificate.ts";
import { childrenOf, contentOf, DerError, oidText, parseOne } from "./der-tree.ts";

// The qualified CAs a bank's certificates chain to, as they are published: IIT's `CACertificates.p7b`
// (a certificates-only CMS SignedData, DER or PEM "PKCS7"), a PEM bundle, or one DER certificate; inline
// PEM or a file path. The published list also holds CAs with ECDSA or RSA keys, which jkurwa cannot read
// and which never sign a bank's DSTU 4145 certificate: they are counted and left out, not refused.

export interface CaList {
  certificates: Certificate[];
  /** Certificates in the list jkurwa cannot read (not DSTU 4145). */
  skipped: number;
  format: "PEM" | "PKCS#7" | "DER";
}

const signedDataOid = "1.2.840.113549.1.7.2";
const pemBlocks = (text: string, label: string) =>
  [...text.matchAll(new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, "g"))].map((match) =>
    Buffer.from((match[1] ?? "").replace(/\s+/g, ""), "base64"),
  );

/** The certificates of a certificates-only SignedData: ContentInfo { signedData, [0] { …, [0] certificates } }. */
function p7bCertificates(der: Buffer): Buffer[] | undefined {
  const [type, wrapped] = childrenOf(parseOne(der), 0x30);
  if (oidText(contentOf(type, 0x06)) !== signedDataOid) return undefined;
  const fields = childrenOf(childrenOf(wrapped, 0xa0)[0], 0x30);
  const certificates = fields.find((field) => field.tag === 0xa0);
  return (certificates?.children ?? []).filter((node) => node.tag === 0x30).map((node) => node.encoded);
}

function readable(ders: Buffer[], format: CaList["format"]): CaList {
  const certificates: Certificate[] = [];
  for (const der of ders) {
    try {
      const certificate = caCertificate(der);
      // jkurwa also parses RSA and ECDSA certificates; only DSTU 4145 CAs issue banks' certificates.
      if (certificate.pubkeyAlgorithm === "Dstu4145le") certificates.push(certificate);
    } catch {
      // Not a certificate jkurwa can read: counted below.
    }
  }
  return { certificates, skipped: ders.length - certificates.length, format };
}

/** A CA list's certificates; throws Error naming the problem (never the content). */
export function parseCaList(data: Buffer): CaList {
  const text = data.toString("latin1").replace(/\\n/g, "\n");
  if (text.includes("-----BEGIN CERTIFICATE-----")) return readable(pemBlocks(text, "CERTIFICATE"), "PEM");
  const pkcs7 = text.includes("-----BEGIN PKCS7-----") ? pemBlocks(text, "PKCS7")[0] : undefined;
  try {
    const certificates = p7bCertificates(pkcs7 ?? data);
    if (certificates) return readable(certificates, "PKCS#7");
  } catch (error) {
    if (!(error instanceof DerError)) throw error;
    // Not a ContentInfo: a lone DER certificate's first field is its TBSCertificate, where the type's OID would be.
    const single = pkcs7 ? undefined : readable([data], "DER");
    if (single && single.certificates.length > 0) return single;
    throw new Error("is neither PEM certificates, a PKCS#7 certificate list nor a DER certificate");
  }
  return readable([data], "DER");
}

/** BANKID_TRUST_ANCHORS and BANKID_INTERMEDIATE_CAS: inline PEM, or the path of a PEM, .p7b or DER file. */
export function readCaList(variable: string, value: string | undefined): CaList {
  if (value === undefined) return { certificates: [], skipped: 0, format: "PEM" };
  const inline = value.includes("-----BEGIN");
  if (!inline && !existsSync(value)) throw new ConfigError(`${variable}: is neither PEM nor a readable file`);
  let list: CaList;
  try {
    list = parseCaList(inline ? Buffer.from(value, "utf8") : readFileSync(value));
  } catch (error) {
    throw new ConfigError(`${variable}: ${error instanceof Error ? error.message : "cannot be read"}`);
  }
  if (list.certificates.length === 0) throw new ConfigError(`${variable}: holds no DSTU 4145 certificate`);
  return list;
}

/** Several files, each read as readCaList reads one (PEM, .p7b or DER), as one list: check-answer's --trust. */
export function readCaFiles(option: string, paths: string[]): CaList {
  const lists = paths.map((path) => readCaList(`${option} ${path}`, path));
  return {
    certificates: lists.flatMap((list) => list.certificates),
    skipped: lists.reduce((total, list) => total + list.skipped, 0),
    format: lists[0]?.format ?? "PEM",
  };
}
