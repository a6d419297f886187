/// <reference path="./dstu-modules.d.ts" />
import jkurwa, { type Certificate, type Message } from "jkurwa";
import { Name } from "jkurwa/lib/spec/rfc3280.js";

// Reading Diia's CMS SignedData as it comes: the signer's certificate wherever it sits among the CMS's
// certificates, or absent (then one of the configured certificates, by issuer and serial number); unsigned
// attributes (CAdES-X-Long: certificate and revocation values and references, a signature time-stamp) are
// named but never needed: the signature covers only the signed attributes.

/** Where the signer's certificate was found. */
export type SignerSource = "first in the CMS" | "in the CMS, not first" | "configured (absent from the CMS)";

export interface ParsedSignature {
  message: Message;
  signer: Certificate;
  signerSource: SignerSource;
  /** The unsigned attributes present, by name (or OID when jkurwa has no name for it). */
  unsignedAttributes: string[];
}

interface IssuerAndSerial {
  issuer: unknown;
  serialNumber: { toString(radix: number): string };
}

// ETSI's names for the attributes, by OID or by jkurwa's name for it.
const cadesNames: Record<string, string> = {
  "1.2.840.113549.1.9.16.2.14": "signature-time-stamp",
  timeStampToken: "signature-time-stamp",
  "1.2.840.113549.1.9.16.2.21": "complete-certificate-references",
  certificateRefs: "complete-certificate-references",
  "1.2.840.113549.1.9.16.2.22": "complete-revocation-references",
  revocationRefs: "complete-revocation-references",
  "1.2.840.113549.1.9.16.2.23": "certificate-values",
  certificateValues: "certificate-values",
  "1.2.840.113549.1.9.16.2.24": "revocation-values",
  revocationValues: "revocation-values",
};

function attributeName(type: unknown): string {
  const oid = Array.isArray(type) ? type.join(".") : String(type);
  return cadesNames[oid] ?? oid;
}

/** The SignerInfo's issuerAndSerialNumber (Diia's and IIT's signers name their certificate so). */
function signerId(message: Message): IssuerAndSerial | undefined {
  const sid = message.info.signerInfos[0]?.sid;
  if (sid?.type !== "issuerAndSerialNumber") return undefined;
  const value = sid.value as Partial<IssuerAndSerial>;
  const serial = value.serialNumber;
  if (typeof serial !== "object" || serial === null || value.issuer === undefined) return undefined;
  return { issuer: value.issuer, serialNumber: serial };
}

function nameBytes(name: unknown): string {
  return Name.encode(name, "der").toString("hex");
}

/** Whether the certificate is the one issuer and serial number name (both: serials repeat across CAs). */
function isNamed(certificate: Certificate, id: IssuerAndSerial): boolean {
  try {
    return (
      certificate.serial.toString(16) === id.serialNumber.toString(16) &&
      nameBytes(certificate.ob.tbsCertificate.issuer) === nameBytes(id.issuer)
    );
  } catch {
    return false;
  }
}

function findSigner(
  embedded: Certificate[],
  configured: Certificate[],
  id: IssuerAndSerial,
): Pick<ParsedSignature, "signer" | "signerSource"> | undefined {
  const index = embedded.findIndex((each) => isNamed(each, id));
  const inMessage = embedded[index];
  if (inMessage) return { signer: inMessage, signerSource: index === 0 ? "first in the CMS" : "in the CMS, not first" };
  const known = configured.find((each) => isNamed(each, id));
  return known ? { signer: known, signerSource: "configured (absent from the CMS)" } : undefined;
}

export type ParseFailure = "not_signed_data" | "signer_not_named" | "signer_certificate_not_found";

/** The message and its signer's certificate, or why they cannot be had. */
export function parseSignedMessage(signature: Buffer, configured: Certificate[]): ParsedSignature | ParseFailure {
  let message: Message;
  let embedded: Certificate[];
  try {
    message = new jkurwa.models.Message(signature);
    if (message.type !== "signedData" || message.info.signerInfos.length !== 1) return "not_signed_data";
    embedded = (message.info.certificate ?? []).map((each) => new jkurwa.Certificate(each));
  } catch {
    return "not_signed_data";
  }
  const id = signerId(message);
  if (!id) return "signer_not_named";
  const found = findSigner(embedded, configured, id);
  if (!found) return "signer_certificate_not_found";
  const unsigned = message.info.signerInfos[0]?.unauthenticatedAttributes ?? [];
  const unsignedAttributes = unsigned.map((each) => attributeName((each as { type?: unknown }).type));
  return { message, ...found, unsignedAttributes };
}
