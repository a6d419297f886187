/// <reference path="./dstu-modules.d.ts" />
import { existsSync, readFileSync } from "node:fs";
import jkurwa, { type Certificate } from "jkurwa";
import { type CaList, parseCaList } from "../../bankid/crypto/ca-list.ts";

const pemBlock = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** A configured trust anchor could not be read; the message names the problem, not the content. */
export class TrustAnchorError extends Error {
  override name = "TrustAnchorError";
}

/** The text when `value` is inline PEM or a file holding PEM certificates; the bytes of any other file. */
function pemText(value: string): { text: string } | { bytes: Buffer } {
  // An environment variable may carry the PEM with literal "\n" escapes.
  if (value.includes("-----BEGIN")) return { text: value.replace(/\\n/g, "\n") };
  if (!existsSync(value)) throw new TrustAnchorError("is neither PEM certificates nor a readable file");
  const bytes = readFileSync(value);
  const text = bytes.toString("latin1");
  return text.includes("-----BEGIN CERTIFICATE-----") ? { text: text.replace(/\\n/g, "\n") } : { bytes };
}

/**
 * DIIA_TRUST_ANCHORS and DIIA_INTERMEDIATE_CAS: PEM certificates inline, or the path of a PEM file, of a
 * certificates-only PKCS#7 bundle as the CAs publish them (`CACertificates.Test.p7b`, DER or PEM) or of
 * one DER certificate. A bundle's CAs that are not DSTU 4145 (ECDSA, RSA) never issue Diia signers'
 * certificates and are left out; the PKCS#7 reader is the one BankID's trust list uses.
 */
export function parseTrustAnchors(value: string): Certificate[] {
  const source = pemText(value);
  if ("bytes" in source || !source.text.includes("-----BEGIN CERTIFICATE-----")) {
    return certificatesOfBundle("bytes" in source ? source.bytes : Buffer.from(source.text, "utf8"));
  }
  const blocks = [...source.text.matchAll(pemBlock)].map((match) => match[1] ?? "");
  if (blocks.length === 0) throw new TrustAnchorError("holds no PEM certificate");
  return blocks.map((body, index) => {
    try {
      return jkurwa.Certificate.from_asn1(Buffer.from(body.replace(/\s+/g, ""), "base64"));
    } catch {
      throw new TrustAnchorError(`certificate ${index + 1} cannot be parsed`);
    }
  });
}

function certificatesOfBundle(data: Buffer): Certificate[] {
  let list: CaList;
  try {
    list = parseCaList(data);
  } catch (error) {
    throw new TrustAnchorError(error instanceof Error ? error.message : "cannot be read");
  }
  if (list.certificates.length === 0) throw new TrustAnchorError("holds no DSTU 4145 certificate");
  return list.certificates;
}
