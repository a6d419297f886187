/// <reference path="./bankid-modules.d.ts" />
// The worker thread of envelope-opener.ts: opens BankID envelopes (key agreement, decryption, the bank's
// signature and chain) with the instance's key and CAs, one at a time. Revocation stays with the instance (its
// CRLs refresh there): the thread takes every certificate as not revoked and names what it took, and the instance
// answers those questions; the first answer that is not "good" decides, as it would have decided inline.
import "./dstu-curves.ts";
import { parentPort, workerData } from "node:worker_threads";
import jkurwa, { type Certificate } from "jkurwa";
import { from_protected } from "jkurwa/lib/models/Priv.js";
import { answerQuestions } from "../../../platform/crypto/worker-line-thread.ts";
import type { BankTrust } from "./bank-signature.ts";
import { caCertificate } from "./ca-certificate.ts";
import { type AnswerContext, type EnvelopeFailure, traceBankIdEnvelope } from "./envelope-reader.ts";

/** What the instance gives the thread: its key-agreement key and certificate, and its CAs, as DER. */
export interface EnvelopeThreadData {
  /** Our DSTU 4145 private key (jkurwa's DER): the thread lives in the instance's process. */
  key: Uint8Array;
  certificate: Uint8Array;
  anchors: Uint8Array[];
  intermediates: Uint8Array[];
  /** Whether the instance checks revocation (BANKID_CRLS): without it the thread asks nothing. */
  revocation: boolean;
}

export interface EnvelopeThreadRequest {
  customerCrypto: string;
  now: Date;
  answer: AnswerContext;
}

/** A certificate whose revocation the thread took as "good": the bank's encryption certificate, or its signer's. */
export interface RevocationQuestion {
  of: "originator" | "signer";
  certificate: Uint8Array;
  /** Its issuer's index in anchors then intermediates. */
  issuer: number;
}

export type OpenedEnvelope = { ok: true; data: unknown } | { ok: false; reason: EnvelopeFailure };

export interface EnvelopeThreadResult {
  opened: OpenedEnvelope;
  /** In the order they were asked. */
  questions: RevocationQuestion[];
}

const data = workerData as EnvelopeThreadData;
const [key] = from_protected(Buffer.from(data.key)).keys ?? [];
if (!key) throw new Error("BankID envelope thread: no key");
const ours = { key, certificate: jkurwa.Certificate.from_asn1(Buffer.from(data.certificate)) };
const anchors = data.anchors.map((der) => caCertificate(Buffer.from(der)));
const intermediates = data.intermediates.map((der) => caCertificate(Buffer.from(der)));
const authorities = [...anchors, ...intermediates];

answerQuestions<EnvelopeThreadRequest, EnvelopeThreadResult>(parentPort, (request) => {
  const questions: RevocationQuestion[] = [];
  const asking = (of: RevocationQuestion["of"]): BankTrust => ({
    anchors,
    intermediates,
    ...(data.revocation
      ? {
          revocation: {
            status: (certificate: Certificate, issuer: Certificate) => {
              questions.push({
                of,
                certificate: new Uint8Array(certificate.as_asn1()),
                issuer: authorities.indexOf(issuer),
              });
              return "good";
            },
          },
        }
      : {}),
  });
  const { result } = traceBankIdEnvelope(
    request.customerCrypto,
    ours,
    asking("originator"),
    request.now,
    request.answer,
    asking("signer"),
  );
  // The signer's certificate stays here: sign-in needs only the data.
  return { opened: result.ok ? { ok: true, data: result.data } : result, questions };
});
