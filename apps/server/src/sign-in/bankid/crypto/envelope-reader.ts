/// <reference path="./bankid-modules.d.ts" />
import "./dstu-curves.ts";
import { gost_unwrap } from "gost89/lib/compat.js";
import type { Certificate, Priv, Pub } from "jkurwa";
import { type BankSignatureFailure, type BankTrust, checkBankSignature } from "./bank-signature.ts";
import { type BankIdEnvelope, oids, readEnvelope } from "./envelope-format.ts";
import { gost28147Cfb, gost28147Counter } from "./gost-ctr.ts";
import { keyEncryptionKey, type LeadingZeros, leadingZeroBytes, sharedX } from "./key-agreement.ts";
import {
  type AnswerContext,
  keyOnOurCurve,
  names,
  type OriginatorFailure,
  type OriginatorSource,
  staticOriginatorKey,
} from "./originator.ts";

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
): { key: Pub; source?: OriginatorSource } | EnvelopeFailure {
  const { originator } = envelope;
  if (originator.kind !== "originatorKey")
    return staticOriginatorKey(originator, answer, envelope.carriedCertificates, ours.key, trust, now);
  if (originator.algorithm !== oids.dstu4145le) return "unsupported_algorithm";
  // An ephemeral key has no curve of its own (parameters NULL): it is on the recipient's.
  const key = keyOnOurCurve(ours.key, originator.publicKey);
  return key ? { key } : "unsupported_algorithm";
}

/** One step of opening an envelope, as `kpi-id bankid check-answer` prints it. */
export interface EnvelopeStep {
  step: string;
  ok: boolean;
  detail: string;
}

const originatorText = (envelope: BankIdEnvelope) =>
  envelope.originator.kind === "originatorKey"
    ? "dynamic agreement (ephemeral key)"
    : `static agreement (bank's certificate by ${envelope.originator.kind})`;

/**
 * The content key. ZZ drops every leading zero byte of x, as the certified libraries do (key-agreement.ts);
 * when x starts with two or more, the one-byte rule of jkurwa-based senders is tried too. The key wrap's
 * MAC tells the right one, so the second try accepts nothing the first would not have had to.
 */
function contentKey(x: Buffer, envelope: BankIdEnvelope, steps: EnvelopeStep[]): Buffer {
  const zeros = `x starts with ${leadingZeroBytes(x)} zero byte(s)`;
  const rules: [LeadingZeros, string][] = [["strip_all", "every leading zero dropped"]];
  if (leadingZeroBytes(x) >= 2) rules.push(["strip_one", "one leading zero dropped (jkurwa's rule)"]);
  for (const [rule, how] of rules) {
    try {
      const key = gost_unwrap(keyEncryptionKey(x, envelope.ukm, rule), envelope.encryptedKey);
      steps.push({ step: "key unwrap", ok: true, detail: `${zeros}; ${how}` });
      return key;
    } catch {
      // The next rule, if any.
    }
  }
  steps.push({ step: "key unwrap", ok: false, detail: `${zeros}; the key wrap's checksum fails` });
  throw new Error("the content key does not unwrap");
}

function decrypt(
  der: Buffer,
  ours: OurKeyAgreement,
  trust: BankTrust,
  now: Date,
  answer: AnswerContext,
  steps: EnvelopeStep[],
): Buffer | EnvelopeFailure {
  const envelope = readEnvelope(der);
  steps.push({
    step: "envelope",
    ok: !!envelope,
    detail: envelope
      ? `EnvelopedData, kari, ${originatorText(envelope)}, ukm ${envelope.ukm ? "present" : "absent"}, content ${envelope.contentCipher}`
      : "not a CMS EnvelopedData with one key-agreement recipient",
  });
  if (!envelope) return "malformed";
  const toUs = names(envelope.recipient, ours.certificate);
  steps.push({ step: "recipient", ok: toUs, detail: `named by ${envelope.recipient.kind}` });
  if (!toUs) return "wrong_recipient";
  const algorithms = `${envelope.keyEncryptionAlgorithm}, wrap ${envelope.keyWrapAlgorithm}, content ${envelope.contentCipher}${envelope.dke ? ", own S-box" : ""}`;
  steps.push({ step: "algorithms", ok: supported(envelope), detail: algorithms });
  if (!supported(envelope)) return "unsupported_algorithm";
  try {
    const theirs = originatorKey(envelope, ours, trust, now, answer);
    const from = typeof theirs !== "string" && theirs.source ? `, the bank's certificate from ${theirs.source}` : "";
    steps.push({
      step: "originator key",
      ok: typeof theirs !== "string",
      detail: typeof theirs === "string" ? theirs : `on the ${ours.key.curve.m}-bit curve${from}`,
    });
    if (typeof theirs === "string") return theirs;
    const key = contentKey(sharedX(ours.key, theirs.key), envelope, steps);
    return contentCiphers[envelope.contentCipher]?.(key, envelope) ?? "unsupported_algorithm";
  } catch {
    // The key unwrap's checksum fails for a key made for someone else or altered on the way.
    return "undecryptable";
  }
}

/**
 * Opens the envelope and says how each step went (the reader sign-in uses, step by step). `signerTrust` is
 * `trust` but for the worker thread (envelope-thread.ts), which tells the bank's two certificates' revocation
 * questions apart.
 */
export function traceBankIdEnvelope(
  customerCrypto: string,
  ours: OurKeyAgreement,
  trust: BankTrust,
  now: Date,
  answer: AnswerContext = {},
  signerTrust: BankTrust = trust,
): { result: EnvelopeResult; steps: EnvelopeStep[] } {
  const steps: EnvelopeStep[] = [];
  const done = (result: EnvelopeResult) => ({ result, steps });
  const decrypted = decrypt(Buffer.from(customerCrypto, "base64"), ours, trust, now, answer, steps);
  if (typeof decrypted === "string") return done({ ok: false, reason: decrypted });
  const signature = checkBankSignature(decrypted, signerTrust, now);
  steps.push({
    step: "bank's signature",
    ok: signature.ok,
    detail: signature.ok
      ? `${signature.signer.subject.commonName ?? signature.signer.subjectDN()}, chains to a configured CA`
      : signature.reason,
  });
  if (!signature.ok) return done(signature);
  try {
    const data: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(signature.content));
    steps.push({ step: "content", ok: true, detail: "UTF-8 JSON" });
    return done({ ok: true, data, signer: signature.signer });
  } catch {
    steps.push({ step: "content", ok: false, detail: "not UTF-8 JSON" });
    return done({ ok: false, reason: "not_json" });
  }
}

export function openBankIdEnvelope(
  customerCrypto: string,
  ours: OurKeyAgreement,
  trust: BankTrust,
  now: Date,
  answer: AnswerContext = {},
): EnvelopeResult {
  return traceBankIdEnvelope(customerCrypto, ours, trust, now, answer).result;
}
