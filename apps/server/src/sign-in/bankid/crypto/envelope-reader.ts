/// <reference path="./bankid-modules.d.ts" />
import { gost_unwrap } from "gost89/lib/compat.js";
import type { Certificate, Priv } from "jkurwa";
import { sameBytes } from "../../../platform/crypto/tokens.ts";
import { type BankSignatureFailure, type BankTrust, checkBankSignature } from "./bank-signature.ts";
import { counterModeName, decodeEnvelope, type KeyAgreeRecipientInfo } from "./envelope-format.ts";
import { gost28147Counter } from "./gost-ctr.ts";
import { sharedKey } from "./key-agreement.ts";

// Opens BankID NBU's `customerCrypto`: CMS EnvelopedData for our DSTU 4145
// key-agreement certificate (kari), GOST 28147 gamma-mode content, inside it the
// bank's SignedData over UTF-8 JSON. Only the layout real envelopes use is
// accepted (an ephemeral originator key; see research/bankid-nbu.md §3.1).

export type EnvelopeFailure =
  | "malformed"
  | "wrong_recipient"
  | "unsupported_algorithm"
  | "undecryptable"
  | "not_json"
  | BankSignatureFailure;

export type EnvelopeResult = { ok: true; data: unknown; signer: Certificate } | { ok: false; reason: EnvelopeFailure };

export interface OurKeyAgreement {
  key: Priv;
  certificate: Certificate;
}

function addressedToUs(info: KeyAgreeRecipientInfo, ours: Certificate): boolean {
  const rid = info.recipientEncryptedKeys[0]?.rid;
  if (info.recipientEncryptedKeys.length !== 1 || !rid) return false;
  if (rid.type === "rKeyId") {
    const ourId = ours.extension.subjectKeyIdentifier;
    return !!ourId && !!rid.value.subjectKeyIdentifier && sameBytes(ourId, Buffer.from(rid.value.subjectKeyIdentifier));
  }
  return rid.value.serialNumber?.toString(16) === ours.serial.toString(16);
}

function originatorKey(info: KeyAgreeRecipientInfo, ours: OurKeyAgreement) {
  const publicKey = info.originator.type === "originatorKey" ? info.originator.value.publicKey?.data : undefined;
  // The bit string holds an OCTET STRING (04, length) of the little-endian compressed point.
  if (!publicKey || publicKey.length < 3 || publicKey[0] !== 0x04) return undefined;
  const bigEndian = Buffer.concat([Buffer.from([0]), Buffer.from(publicKey.subarray(2)).reverse()]);
  return ours.key.curve.pubkey(bigEndian, "buf8");
}

function decrypt(der: Buffer, ours: OurKeyAgreement): Buffer | EnvelopeFailure {
  const envelope = decodeEnvelope(der);
  const recipient = envelope?.content.recipientInfos;
  if (!envelope || recipient?.length !== 1 || recipient[0]?.type !== "kari") return "malformed";
  const info = recipient[0].value;
  if (!addressedToUs(info, ours.certificate)) return "wrong_recipient";
  const content = envelope.content.encryptedContentInfo;
  const cipher = content.contentEncryptionAlgorithm.parameters;
  if (
    cipher.type !== "params" ||
    info.keyEncryptionAlgorithm.algorithm !== "dhSinglePass-cofactorDH-gost34311kdf" ||
    info.keyEncryptionAlgorithm.parameters.algorithm !== "Gost28147-cfb-wrap" ||
    content.contentEncryptionAlgorithm.algorithm !== counterModeName ||
    cipher.value.dke
  )
    return "unsupported_algorithm";
  try {
    const theirKey = originatorKey(info, ours);
    const wrapped = info.recipientEncryptedKeys[0]?.encryptedKey;
    if (!theirKey || !wrapped) return "unsupported_algorithm";
    const keyEncryptionKey = sharedKey(ours.key, theirKey, info.ukm);
    const contentKey = gost_unwrap(keyEncryptionKey, wrapped);
    return gost28147Counter({ key: contentKey, iv: cipher.value.iv, data: content.encryptedContent });
  } catch {
    // The key unwrap's checksum fails for a key made for someone else or altered on the way.
    return "undecryptable";
  }
}

export function openBankIdEnvelope(
  customerCrypto: string,
  ours: OurKeyAgreement,
  trust: BankTrust,
  now: Date,
): EnvelopeResult {
  const decrypted = decrypt(Buffer.from(customerCrypto, "base64"), ours);
  if (typeof decrypted === "string") return { ok: false, reason: decrypted };
  const signature = checkBankSignature(decrypted, trust, now);
  if (!signature.ok) return signature;
  try {
    return {
      ok: true,
      data: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(signature.content)),
      signer: signature.signer,
    };
  } catch {
    return { ok: false, reason: "not_json" };
  }
}
