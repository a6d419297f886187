/// <reference path="./bankid-modules.d.ts" />
import "./dstu-curves.ts";
import { gost_unwrap } from "gost89/lib/compat.js";
import type { Certificate, Priv, Pub } from "jkurwa";
import { type BankSignatureFailure, type BankTrust, checkBankSignature } from "./bank-signature.ts";
import { type BankIdEnvelope, oids, readEnvelope } from "./envelope-format.ts";
import { gost28147Cfb, gost28147Counter } from "./gost-ctr.ts";
import { keyEncryptionKey, leadingZeroBytes, sharedX } from "./key-agreement.ts";
import { type AnswerContext, keyOnOurCurve, names, type OriginatorFailure, staticOriginatorKey } from "./originator.ts";

// Opens BankID NBU's `customerCrypto`: CMS EnvelopedData for our DSTU 4145 key-agreement certificate
// (kari: dynamic agreement with an ephemeral key, or static with the bank's encryption certificate; ukm
// optional), GOST 28147 gamma or CFB content; inside it the bank's SignedData over UTF-8 JSON.

export type EnvelopeFailure =
  | "malformed"
  | "wrong_recipient"
  | "unsupported_algorithm"
  | "undecryptable"
  | "not_json"
  | OriginatorFailure
  | BankSignatureFailure;

export type EnvelopeResult = { ok: true; data: unknown; signer: Certificate } | { ok: false; reason: EnvelopeFailure };

export interface OurKeyAgreement {
  key: Priv;
  certificate: Certificate;
}

export type { AnswerContext };

const contentCiphers: Record<string, (key: Buffer, envelope: BankIdEnvelope) => Buffer> = {
  [oids.gost28147Counter]: (key, { iv, encryptedContent }) => gost28147Counter({ key, iv, data: encryptedContent }),
  [oids.gost28147Cfb]: (key, { iv, encryptedContent }) => gost28147Cfb({ key, iv, data: encryptedContent }, "decrypt"),
};

function supported(envelope: BankIdEnvelope): boolean {
  return (
    envelope.keyEncryptionAlgorithm === oids.cofactorDhGost34311Kdf &&
    envelope.keyWrapAlgorithm === oids.gost28147CfbWrap &&
    contentCiphers[envelope.contentCipher] !== undefined &&
    envelope.iv.length === 8 &&
    // Only the default S-box (DKE №1), which every sample and client uses.
    envelope.dke === undefined
  );
}

function originatorKey(
  envelope: BankIdEnvelope,
  ours: OurKeyAgreement,
  trust: BankTrust,
  now: Date,
  answer: AnswerContext,
): Pub | EnvelopeFailure {
  const { originator } = envelope;
  if (originator.kind !== "originatorKey") return staticOriginatorKey(originator, answer, ours.key, trust, now);
  if (originator.algorithm !== oids.dstu4145le) return "unsupported_algorithm";
  // An ephemeral key has no curve of its own (parameters NULL): it is on the recipient's.
  return keyOnOurCurve(ours.key, originator.publicKey) ?? "unsupported_algorithm";
}

/**
 * The content key. ZZ drops every leading zero byte of x, as the certified libraries do (key-agreement.ts);
 * when x starts with two or more, the one-byte rule of jkurwa-based senders is tried too. The key wrap's
 * MAC tells the right one, so the second try accepts nothing the first would not have had to.
 */
function contentKey(x: Buffer, envelope: BankIdEnvelope): Buffer {
  try {
    return gost_unwrap(keyEncryptionKey(x, envelope.ukm, "strip_all"), envelope.encryptedKey);
  } catch (error) {
    if (leadingZeroBytes(x) < 2) throw error;
    return gost_unwrap(keyEncryptionKey(x, envelope.ukm, "strip_one"), envelope.encryptedKey);
  }
}

function decrypt(
  der: Buffer,
  ours: OurKeyAgreement,
  trust: BankTrust,
  now: Date,
  answer: AnswerContext,
): Buffer | EnvelopeFailure {
  const envelope = readEnvelope(der);
  if (!envelope) return "malformed";
  if (!names(envelope.recipient, ours.certificate)) return "wrong_recipient";
  if (!supported(envelope)) return "unsupported_algorithm";
  try {
    const theirs = originatorKey(envelope, ours, trust, now, answer);
    if (typeof theirs === "string") return theirs;
    const key = contentKey(sharedX(ours.key, theirs), envelope);
    return contentCiphers[envelope.contentCipher]?.(key, envelope) ?? "unsupported_algorithm";
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
  answer: AnswerContext = {},
): EnvelopeResult {
  const decrypted = decrypt(Buffer.from(customerCrypto, "base64"), ours, trust, now, answer);
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
