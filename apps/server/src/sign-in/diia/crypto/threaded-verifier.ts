/// <reference path="./dstu-modules.d.ts" />
import type { Certificate } from "jkurwa";
import type { CheckQueue, CheckQueueOptions } from "../../../platform/crypto/check-queue.ts";
import { WorkerLine } from "../../../platform/crypto/worker-line.ts";
import type { CheckThreadData, CheckThreadRequest, CheckThreadResult } from "./check-thread.ts";
import type { JkurwaSignatureVerifier } from "./jkurwa-verifier.ts";
import type { DiiaSignatureVerifier, SignatureCheck, SignatureCheckInput } from "./verifier.ts";

// Diia's signature checks off the event loop (issue 80). A callback's DSTU verifications (the signer's signature,
// its certificate's issuer: jkurwa and gost89 in JavaScript, tens of milliseconds of a core together) ran on the
// event loop, and every other request on the instance waited behind each callback: in the campus rush the loop's
// lag p99 reached 37–94 ms with Diia and BankID in the mix. They now run in one worker thread, started at the first
// callback; the event loop keeps the cheap rest (revocation from the kept CRLs and OCSP answers, dates, key usage,
// the tax id). The callbacks take turns in a bounded line (platform/crypto/worker-line.ts): past it Diia is answered
// 429 with Retry-After rather than the instance holding checks nobody will wait for.

/** The line's bounds: one thread, a few dozen callbacks waiting at most, none for longer than Diia waits. */
export const diiaCheckLine: CheckQueueOptions = { concurrency: 1, maxWaiting: 64, maxWaitMs: 10_000 };

export class ThreadedSignatureVerifier implements DiiaSignatureVerifier {
  readonly #onLoop: JkurwaSignatureVerifier;
  readonly #line: WorkerLine<CheckThreadRequest, CheckThreadResult>;

  /** `verifier` is the instance's own (its revocation stores); the thread gets the same certificates. */
  constructor(
    verifier: JkurwaSignatureVerifier,
    certificates: { anchors: Certificate[]; intermediates: Certificate[]; signers: Certificate[] },
    line: CheckQueueOptions = diiaCheckLine,
  ) {
    this.#onLoop = verifier;
    const der = (list: Certificate[]) => list.map((each) => new Uint8Array(each.as_asn1()));
    const workerData: CheckThreadData = {
      anchors: der(certificates.anchors),
      intermediates: der(certificates.intermediates),
      signers: der(certificates.signers),
    };
    // From the source file beside this one, bundled or not: the build keeps import.meta.url pointing at the source
    // (apps/server/scripts/build.ts), and Node runs the thread's TypeScript as it runs the CLI's.
    this.#line = new WorkerLine({
      name: "diia",
      file: new URL("./check-thread.ts", import.meta.url),
      workerData,
      line,
    });
  }

  get queue(): CheckQueue {
    return this.#line.queue;
  }

  async verify(input: SignatureCheckInput): Promise<SignatureCheck> {
    // Copies: a small Buffer is a view of Node's shared pool, which posting would copy whole.
    const first = await this.#line.ask({
      signature: new Uint8Array(input.signature),
      requestId: input.requestId,
      now: input.now,
      ...(input.requestDigest ? { requestDigest: new Uint8Array(input.requestDigest) } : {}),
    });
    if (!first.ok) return first;
    return this.#onLoop.afterSignatureAndChain(input, first.issuer);
  }

  /** Stops the thread (the instance closing); a later check starts another. */
  close(): Promise<void> {
    return this.#line.close();
  }
}
