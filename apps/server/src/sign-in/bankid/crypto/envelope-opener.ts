/// <reference path="./bankid-modules.d.ts" />
import type { Certificate } from "jkurwa";
import type { CheckQueue, CheckQueueOptions } from "../../../platform/crypto/check-queue.ts";
import { WorkerLine } from "../../../platform/crypto/worker-line.ts";
import { type BankTrust, signerRevocationFailure } from "./bank-signature.ts";
import { caCertificate } from "./ca-certificate.ts";
import type { AnswerContext, OurKeyAgreement } from "./envelope-reader.ts";
import type {
  EnvelopeThreadData,
  EnvelopeThreadRequest,
  EnvelopeThreadResult,
  OpenedEnvelope,
} from "./envelope-thread.ts";
import { originatorRevocationFailure } from "./originator.ts";

// BankID's envelope off the event loop (issue 80). Opening a bank's answer (DSTU 4145 key agreement, GOST 28147
// decryption, the bank's signature and its chain: jkurwa and gost89 in JavaScript) took about 47 ms of a core on
// the event loop, and every other request on the instance waited behind it. It now runs in one worker thread,
// started at the first answer, in a bounded line as Diia's callbacks (platform/crypto/worker-line.ts): past it the
// answer is refused with 429 `request.rate_limited` (a browser: back to the page with `bankid_auth_error=busy`).
// The event loop keeps the revocation answers (the CRLs it refreshes) and reading the person's data.

export type { OpenedEnvelope };

/** The line's bounds: one thread, a few dozen answers waiting at most, none longer than a person waits. */
export const bankIdEnvelopeLine: CheckQueueOptions = { concurrency: 1, maxWaiting: 64, maxWaitMs: 10_000 };

/** Opens BankID envelopes for sign-in; the thread's part and the event loop's. */
export interface EnvelopeOpener {
  open(customerCrypto: string, now: Date, answer: AnswerContext): Promise<OpenedEnvelope>;
  readonly queue: CheckQueue;
  /** Stops the thread when the instance closes; a later answer starts another. */
  close(): Promise<void>;
}

export class ThreadedEnvelopeOpener implements EnvelopeOpener {
  readonly #trust: BankTrust;
  readonly #authorities: Certificate[];
  readonly #line: WorkerLine<EnvelopeThreadRequest, EnvelopeThreadResult>;

  /** The thread gets our key and certificate and the same CAs; `trust.revocation` stays on the event loop. */
  constructor(keys: { ours: OurKeyAgreement; trust: BankTrust }, line: CheckQueueOptions = bankIdEnvelopeLine) {
    const { ours, trust } = keys;
    this.#trust = trust;
    this.#authorities = [...trust.anchors, ...trust.intermediates];
    const der = (certificate: Certificate) => new Uint8Array(certificate.as_asn1());
    const workerData: EnvelopeThreadData = {
      key: new Uint8Array(ours.key.as_asn1()),
      certificate: der(ours.certificate),
      anchors: trust.anchors.map(der),
      intermediates: trust.intermediates.map(der),
      revocation: trust.revocation !== undefined,
    };
    // The build keeps import.meta.url pointing at the source, as for Diia's thread (threaded-verifier.ts).
    const file = new URL("./envelope-thread.ts", import.meta.url);
    this.#line = new WorkerLine({ name: "bankid", file, workerData, line });
  }

  get queue(): CheckQueue {
    return this.#line.queue;
  }

  async open(customerCrypto: string, now: Date, answer: AnswerContext): Promise<OpenedEnvelope> {
    const { opened, questions } = await this.#line.ask({ customerCrypto, now, answer });
    // The thread went on as if each certificate it named were not revoked; the first that is decides.
    for (const question of questions) {
      const issuer = this.#authorities[question.issuer];
      if (!issuer) return { ok: false, reason: "untrusted_certificate" };
      const status = this.#trust.revocation?.status(caCertificate(Buffer.from(question.certificate)), issuer, now);
      if (status === undefined || status === "good") continue;
      return {
        ok: false,
        reason: question.of === "originator" ? originatorRevocationFailure : signerRevocationFailure(status),
      };
    }
    return opened;
  }

  close(): Promise<void> {
    return this.#line.close();
  }
}
