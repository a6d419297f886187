// A bounded line for argon2id (issue 80). Each check takes 19 MiB and ~16 ms of a core on one of libuv's worker
// threads; without a line of its own every sign-in in a burst starts at once, the pool's threads (4) and the event
// loop share the instance's core, and the checks past the pool wait on libuv without limit, still running after
// the person (or nginx) has given up. The line lets `concurrency` checks run, keeps at most `maxWaiting` in turn
// (first come, first served), and refuses the rest at once: a refusal costs nothing, a check nobody waits for
// costs everyone behind it.

export interface CheckQueueOptions {
  /** Checks running at once (libuv's pool has 4 threads; the rest of the pool's users need one). */
  concurrency: number;
  /** Checks waiting their turn at most; one more is refused at once. */
  maxWaiting: number;
  /** The longest a check waits for its turn; past it, it is refused (and never runs). */
  maxWaitMs: number;
}

/** Why a check did not run: the line was full, its wait ran out, or nobody was left waiting for it. */
export class CheckRefused extends Error {
  readonly reason: "full" | "timeout" | "abandoned";
  constructor(reason: "full" | "timeout" | "abandoned") {
    super(`password check refused: ${reason}`);
    this.reason = reason;
  }
}

export interface CheckTiming {
  /** Milliseconds spent waiting for the turn. */
  waitedMs: number;
  /** Milliseconds the work took once its turn came. */
  ranMs: number;
}

export interface CheckQueue {
  /**
   * Runs `work` when its turn comes. Refused (CheckRefused) when the line is full, when the turn does not come
   * within the wait, or when `abandoned()` says, at the turn, that nobody waits for the answer any more.
   */
  run<T>(work: () => Promise<T>, abandoned?: () => boolean): Promise<T>;
  /** Checks running and waiting now (for the metrics). */
  readonly running: number;
  readonly waiting: number;
  /** Told each check's wait and run once it ends, and each refusal. */
  onTiming?: (timing: CheckTiming) => void;
  onRefused?: (reason: CheckRefused["reason"]) => void;
}

interface Waiter {
  start: () => void;
  refuse: (reason: CheckRefused["reason"]) => void;
  abandoned: () => boolean;
}

export function createCheckQueue(options: CheckQueueOptions, now: () => number = performance.now.bind(performance)) {
  const line: Waiter[] = [];
  let running = 0;

  // A freed place goes to the first waiter someone still waits for; the abandoned ones are dropped on the way.
  const next = () => {
    while (running < options.concurrency && line.length > 0) {
      const waiter = line.shift() as Waiter;
      if (waiter.abandoned()) waiter.refuse("abandoned");
      else waiter.start();
    }
  };

  const queue: CheckQueue = {
    get running() {
      return running;
    },
    get waiting() {
      return line.length;
    },
    async run<T>(work: () => Promise<T>, abandoned: () => boolean = () => false): Promise<T> {
      const entered = now();
      if (running >= options.concurrency) {
        if (line.length >= options.maxWaiting) {
          queue.onRefused?.("full");
          throw new CheckRefused("full");
        }
        await new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            abandoned,
            start: () => {
              clearTimeout(timer);
              running += 1;
              resolve();
            },
            refuse: (reason) => {
              clearTimeout(timer);
              queue.onRefused?.(reason);
              reject(new CheckRefused(reason));
            },
          };
          const timer = setTimeout(() => {
            const at = line.indexOf(waiter);
            if (at >= 0) line.splice(at, 1);
            waiter.refuse("timeout");
          }, options.maxWaitMs);
          line.push(waiter);
        });
      } else {
        running += 1;
      }
      const began = now();
      try {
        return await work();
      } finally {
        running -= 1;
        queue.onTiming?.({ waitedMs: began - entered, ranMs: now() - began });
        next();
      }
    },
  };
  return queue;
}
