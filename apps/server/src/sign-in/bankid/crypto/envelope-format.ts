/// <reference path="./bankid-modules.d.ts" />
/// <reference path="../../diia/crypto/dstu-modules.d.ts" />
import { ContentInfo } from "jkurwa/lib/spec/dstszi2010.js";
import { ALGORITHMS_IDS } from "jkurwa/lib/spec/rfc3280.js";

// The CMS EnvelopedData shapes BankID NBU sends (DSTU 4145 key agreement, kari),
// as jkurwa's asn1.js model decodes and encodes them.

/** GOST 28147 gamma mode, "id-gost28147-ofb" in DSTU naming. */
export const counterModeOid = "1 2 804 2 1 1 1 1 1 1 2";
export const counterModeName = "Gost28147-ofb";
const cfbName = "Gost28147-cfb";

// jkurwa knows only the CFB content cipher; its OID tables are plain exported
// objects read when decoding, so the counter-mode OID is registered in them with
// CFB's parameters model (the same SEQUENCE { iv, dke OPTIONAL }). asn1.js
// builds its name-to-OID table for encoding once, so the encoder (the stand-in)
// passes the OID as numbers and writes the parameters itself (der-tree.ts).
export const counterModeOidNumbers = counterModeOid.split(" ").map(Number);
const parametersModel = ContentInfo.algoModel[cfbName];
if (parametersModel) {
  ALGORITHMS_IDS[counterModeOid] = counterModeName;
  ContentInfo.algoModel.IDS[counterModeOid] = counterModeName;
  ContentInfo.algoModel[counterModeName] = parametersModel;
}

export interface RecipientIdentifier {
  type: "rKeyId" | "issuerAndSerialNumber";
  value: { subjectKeyIdentifier?: Buffer; serialNumber?: { toString(base: number): string } };
}

export interface KeyAgreeRecipientInfo {
  version: number;
  originator: {
    type: "originatorKey" | "issuerAndSerialNumber" | "subjectKeyIdentifier";
    value: { algorithm?: { algorithm: string; parameters?: Buffer }; publicKey?: { unused: number; data: Buffer } };
  };
  ukm?: Buffer;
  keyEncryptionAlgorithm: { algorithm: string; parameters: { algorithm: string; parameters: null } };
  recipientEncryptedKeys: { rid: RecipientIdentifier; encryptedKey: Buffer }[];
}

export interface EnvelopedContentInfo {
  contentType: "envelopedData";
  content: {
    version: number;
    recipientInfos: { type: string; value: KeyAgreeRecipientInfo }[];
    encryptedContentInfo: {
      contentType: string;
      contentEncryptionAlgorithm: {
        algorithm: string | number[];
        parameters: { type: "params"; value: { iv: Buffer; dke?: Buffer } } | { type: "null_"; value: null };
      };
      encryptedContent: Buffer;
    };
  };
}

export function decodeEnvelope(der: Buffer): EnvelopedContentInfo | undefined {
  try {
    const decoded = ContentInfo.decode(der, "der") as { contentType?: string };
    return decoded.contentType === "envelopedData" ? (decoded as EnvelopedContentInfo) : undefined;
  } catch {
    return undefined;
  }
}

export function encodeEnvelope(envelope: EnvelopedContentInfo): Buffer {
  return ContentInfo.encode(envelope, "der");
}
