/// <reference path="./dstu-modules.d.ts" />
import { Worker } from "node:worker_threads";
import type { Certificate } from "jkurwa";
import {
  type CheckQueue,
  type CheckQueueOptions,
  CheckRefused,
  createCheckQueue,
} from "../../../platform/crypto/check-queue.ts";
import { AppError } from "../../../platform/errors.ts";
import type { CheckThreadData, CheckThreadRequest } from "./check-thread.ts";
import type { JkurwaSignatureVerifier } from "./jkurwa-verifier.ts";
import type { DiiaSignatureVerifier, SignatureCheck, SignatureCheckInput, SignatureFailure } from "./verifier.ts";

// Diia's signature checks off the event loop (issue 80). A callback's DSTU verifications (the signer's signature,
// its certificate's issuer: jkurwa and gost89 in JavaScript, tens of milliseconds of a core together) ran on the
// event loop, and every other request on the instance waited behind each callback: in the campus rush the loop's
// lag p99 reached 37–94 ms with Diia and BankID in the mix. They now run in one worker thread, started at the first
// callback; the event loop keeps the cheap rest (revocation from the kept CRLs and OCSP answers, dates, key usage,
// the tax id). The callbacks take turns in the line argon2id's checks use (platform/crypto/check-queue.ts), with a
// bound: past it Diia is answered 429 with Retry-After rather than the instance holding checks nobody will wait for.

type ThreadResult = { ok: false; reason: SignatureFailure } | { ok: true; issuer: number };

interface Pending {
  resolve: (result: ThreadResult) => void;
  reject: (error: Error) => void;
}

interface Answer {
  id: number;
  result?: ThreadResult;
  error?: string;
}

/** The line's bounds: one thread, a few dozen callbacks waiting at most, none for longer than Diia waits. */
export const diiaCheckLine: CheckQueueOptions = { concurrency: 1, maxWaiting: 64, maxWaitMs: 10_000 };

export class ThreadedSignatureVerifier implements DiiaSignatureVerifier {
  readonly #inThread: JkurwaSignatureVerifier;
  readonly #data: CheckThreadData;
  readonly #queue: CheckQueue;
  readonly #line: CheckQueueOptions;
  #thread: { worker: Worker; pending: Map<number, Pending> } | undefined;
  #nextId = 0;

  /** `verifier` is the instance's own (its revocation stores); the thread gets the same certificates. */
  constructor(
    verifier: JkurwaSignatureVerifier,
    certificates: { anchors: Certificate[]; intermediates: Certificate[]; signers: Certificate[] },
    line: CheckQueueOptions = diiaCheckLine,
  ) {
    this.#inThread = verifier;
    const der = (list: Certificate[]) => list.map((each) => new Uint8Array(each.as_asn1()));
    this.#data = {
      anchors: der(certificates.anchors),
      intermediates: der(certificates.intermediates),
      signers: der(certificates.signers),
    };
    this.#line = line;
    this.#queue = createCheckQueue(line);
  }

  get queue(): CheckQueue {
    return this.#queue;
  }

  async verify(input: SignatureCheckInput): Promise<SignatureCheck> {
    let first: ThreadResult;
    try {
      first = await this.#queue.run(() => this.#ask(input));
    } catch (error) {
      if (!(error instanceof CheckRefused)) throw error;
      throw new AppError("request.rate_limited", {
        retryAfterSeconds: Math.ceil(this.#line.maxWaitMs / 1000),
        cause: error,
      });
    }
    if (!first.ok) return first;
    return this.#inThread.afterSignatureAndChain(input, first.issuer);
  }

  /** Stops the thread (the instance closing); a later check starts another. */
  async close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    await thread?.worker.terminate();
  }

  #ask(input: SignatureCheckInput): Promise<ThreadResult> {
    const { worker, pending } = this.#started();
    const id = this.#nextId++;
    // Copies: a small Buffer is a view of Node's shared pool, which posting would copy whole.
    const request: CheckThreadRequest = {
      id,
      signature: new Uint8Array(input.signature),
      requestId: input.requestId,
      now: input.now,
      ...(input.requestDigest ? { requestDigest: new Uint8Array(input.requestDigest) } : {}),
    };
    return new Promise<ThreadResult>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // Held alive while it owes an answer; idle, it never keeps the process up (the instance closes it).
      worker.ref();
      worker.postMessage(request);
    });
  }

  #started(): { worker: Worker; pending: Map<number, Pending> } {
    if (this.#thread) return this.#thread;
    // From the source file beside this one, bundled or not: the build keeps import.meta.url pointing at the source
    // (apps/server/scripts/build.ts), and Node runs the thread's TypeScript as it runs the CLI's.
    const worker = new Worker(new URL("./check-thread.ts", import.meta.url), { workerData: this.#data });
    const thread = { worker, pending: new Map<number, Pending>() };
    worker.on("message", (answer: Answer) => {
      const waiting = thread.pending.get(answer.id);
      thread.pending.delete(answer.id);
      if (thread.pending.size === 0) worker.unref();
      if (answer.result) waiting?.resolve(answer.result);
      else waiting?.reject(new Error(`Diia check thread: ${answer.error ?? "no answer"}`));
    });
    const failAll = (error: Error) => {
      if (this.#thread === thread) this.#thread = undefined;
      for (const waiting of thread.pending.values()) waiting.reject(error);
      thread.pending.clear();
    };
    worker.on("error", failAll);
    worker.on("exit", (code) => failAll(new Error(`Diia check thread exited (${code})`)));
    this.#thread = thread;
    return thread;
  }
}
