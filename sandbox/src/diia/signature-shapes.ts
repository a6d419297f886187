/// <reference types="@kpi-id/server/dstu-modules" />
// The shapes a Diia ID signature may take (issue 57), chosen per persona on the phone page: the signer's
// certificate first in the CMS (what jkurwa makes), after its CA's, absent (the product finds it among
// DIIA_SIGNER_CERTIFICATES), or with CAdES-X-Long unsigned attributes. Made with jkurwa like the rest of the
// stand-in; the same shapes made by Bouncy Castle are the server's committed vectors (test/vectors/diia).
import gost89 from "gost89";
import jkurwa from "jkurwa";
import { der, issueCrl, type Party, signRequestHash } from "./pki.ts";

export type SignatureShape = "signer-first" | "signer-not-first" | "signer-absent" | "cades-x-long";

const hash = (data: Uint8Array): Buffer => gost89.gosthash(data);
const oid = (dotted: string) => dotted.split(".").map(Number);
// AlgorithmIdentifier { GOST 34.311 } and OtherHashAlgAndValue over some bytes.
const gostAlgorithm = der(0x30, Buffer.from("060a2a8624020101010102 01".replace(/ /g, ""), "hex"));
const otherHash = (data: Buffer) => der(0x30, Buffer.concat([gostAlgorithm, der(0x04, hash(data))]));

interface RawAttribute {
  type: number[];
  values: Buffer[];
}

/** certificate-values, complete-certificate-references, revocation-values, complete-revocation-references, signature-time-stamp. */
function xLongAttributes(signer: Party, issuer: Party, signatureValue: Buffer): RawAttribute[] {
  const caDer = issuer.certificate.as_asn1();
  const now = Date.now();
  const crl = issueCrl(issuer, [], { thisUpdate: now, nextUpdate: now + 24 * 3600 * 1000 });
  const timeStamp = new jkurwa.models.Message({
    type: "signedData",
    cert: signer.certificate,
    dataHash: hash(signatureValue),
    hash,
    signer: signer.key,
  }).as_asn1();
  return [
    { type: oid("1.2.840.113549.1.9.16.2.23"), values: [der(0x30, caDer)] },
    { type: oid("1.2.840.113549.1.9.16.2.21"), values: [der(0x30, der(0x30, otherHash(caDer)))] },
    { type: oid("1.2.840.113549.1.9.16.2.24"), values: [der(0x30, der(0xa0, der(0x30, crl)))] },
    {
      type: oid("1.2.840.113549.1.9.16.2.22"),
      values: [der(0x30, der(0x30, der(0xa0, der(0x30, der(0x30, der(0x30, otherHash(crl)))))))],
    },
    { type: oid("1.2.840.113549.1.9.16.2.14"), values: [timeStamp] },
  ];
}

/**
 * What the Diia app sends: a detached CAdES signature whose message digest is the hash Diia was given (the
 * partner sent base64 of GOST 34.311 of its own request id), in the given shape.
 */
export function signInShape(signer: Party, issuer: Party, hashedRequestId: string, shape: SignatureShape): Buffer {
  // jkurwa's own shape (the signer's certificate alone), re-read to be reshaped.
  const message = new jkurwa.models.Message(signRequestHash(signer, hashedRequestId));
  const info = message.info as { certificate?: unknown[]; signerInfos: { unauthenticatedAttributes?: unknown[] }[] };
  if (shape === "signer-not-first") info.certificate = [issuer.certificate.ob, signer.certificate.ob];
  if (shape === "signer-absent") info.certificate = undefined;
  const signerInfo = info.signerInfos[0];
  if (shape === "cades-x-long" && signerInfo) {
    signerInfo.unauthenticatedAttributes = xLongAttributes(signer, issuer, message.signature);
  }
  return message.as_asn1();
}
