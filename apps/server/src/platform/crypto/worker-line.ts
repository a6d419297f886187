import { Worker } from "node:worker_threads";
import { AppError } from "../errors.ts";
import { type CheckQueue, type CheckQueueOptions, CheckRefused, createCheckQueue } from "./check-queue.ts";
import type { WorkerAnswer, WorkerQuestion } from "./worker-line-thread.ts";

// One worker thread with a bounded line in front of it (issue 80): the DSTU checks of Diia's callbacks and of
// BankID's envelopes are synchronous JavaScript (jkurwa, gost89) that took tens of milliseconds of a core each on
// the event loop, holding every other request on the instance. Each method has its own line (check-queue.ts, the
// type argon2id's checks use) and its own thread, started at the first check and stopped when the instance closes.
// Past the bound a check is refused at once as 429 `request.rate_limited` with Retry-After: the instance does not
// hold checks nobody will wait for.

interface Pending<Result> {
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface Thread<Result> {
  worker: Worker;
  pending: Map<number, Pending<Result>>;
}

export interface WorkerLineOptions {
  /** For errors and the metrics' `line` label: "diia", "bankid". */
  name: string;
  /** The thread's module: new URL("./….ts", import.meta.url), which the build keeps pointing at the source. */
  file: URL;
  /** What the thread is started with (structured-cloned once). */
  workerData: unknown;
  line: CheckQueueOptions;
}

export class WorkerLine<Request, Result> {
  readonly name: string;
  readonly queue: CheckQueue;
  readonly #options: WorkerLineOptions;
  #thread: Thread<Result> | undefined;
  #nextId = 0;

  constructor(options: WorkerLineOptions) {
    this.name = options.name;
    this.#options = options;
    this.queue = createCheckQueue(options.line);
  }

  /** The thread's answer to `request`, at its turn; past the line's bound, 429 `request.rate_limited`. */
  async ask(request: Request): Promise<Result> {
    try {
      return await this.queue.run(() => this.#post(request));
    } catch (error) {
      if (!(error instanceof CheckRefused)) throw error;
      throw new AppError("request.rate_limited", {
        retryAfterSeconds: Math.ceil(this.#options.line.maxWaitMs / 1000),
        cause: error,
      });
    }
  }

  /** Stops the thread (the instance closing); a later check starts another. */
  async close(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    await thread?.worker.terminate();
  }

  #post(request: Request): Promise<Result> {
    const { worker, pending } = this.#started();
    const question: WorkerQuestion<Request> = { id: this.#nextId++, request };
    return new Promise<Result>((resolve, reject) => {
      pending.set(question.id, { resolve, reject });
      // Held alive while it owes an answer; idle, it never keeps the process up (the instance closes it).
      worker.ref();
      worker.postMessage(question);
    });
  }

  #started(): Thread<Result> {
    if (this.#thread) return this.#thread;
    const { name, file, workerData } = this.#options;
    const worker = new Worker(file, { workerData });
    const thread: Thread<Result> = { worker, pending: new Map() };
    worker.on("message", (answer: WorkerAnswer<Result>) => {
      const waiting = thread.pending.get(answer.id);
      thread.pending.delete(answer.id);
      if (thread.pending.size === 0) worker.unref();
      if (answer.result !== undefined) waiting?.resolve(answer.result);
      else waiting?.reject(new Error(`${name} check thread: ${answer.error ?? "no answer"}`));
    });
    const failAll = (error: Error) => {
      if (this.#thread === thread) this.#thread = undefined;
      for (const waiting of thread.pending.values()) waiting.reject(error);
      thread.pending.clear();
    };
    worker.on("error", failAll);
    worker.on("exit", (code) => failAll(new Error(`${name} check thread exited (${code})`)));
    this.#thread = thread;
    return thread;
  }
}
