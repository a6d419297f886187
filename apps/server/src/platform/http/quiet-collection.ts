import type { FastifyInstance } from "fastify";

/**
 * Issue 41's memory after load: a busy spell grows V8's heap, and V8's own memory reducer left it grown once the
 * load stopped (the memory bench: 197 MiB a minute after a minute of sign-ins and GET /user, against 116 MiB
 * idle before it); one full collection, asked for then, gave 112 MiB. So when a window of quiet follows a busy
 * spell, the process collects once. The live heap after the load was the same as before it (36 against 37 MiB
 * in heap snapshots): what comes back is the heap the spell grew, not anything the service keeps.
 */
export interface QuietCollectionOptions {
  /** How often the window closes and is judged. */
  windowMs: number;
  /** Requests in one window that make it busy. */
  busyFromRequests: number;
  /** Fewer requests than this in a window make it quiet (health checks and scrapes stay below it). */
  quietBelowRequests: number;
}

export const quietCollectionDefaults: QuietCollectionOptions = {
  windowMs: 20_000,
  busyFromRequests: 200,
  quietBelowRequests: 20,
};

/** Counts requests and says, at each window's end, whether to collect now. */
export class QuietCollector {
  readonly #options: QuietCollectionOptions;
  #busySinceCollection = false;
  #inWindow = 0;

  constructor(options: QuietCollectionOptions = quietCollectionDefaults) {
    this.#options = options;
  }

  served(): void {
    this.#inWindow += 1;
  }

  /** The window ends: true (once per busy spell) when it was quiet after a busy one. */
  windowEnded(): boolean {
    const requests = this.#inWindow;
    this.#inWindow = 0;
    if (requests >= this.#options.busyFromRequests) this.#busySinceCollection = true;
    if (requests >= this.#options.quietBelowRequests || !this.#busySinceCollection) return false;
    this.#busySinceCollection = false;
    return true;
  }
}

/**
 * The collection the service asks for: V8's collection of all available garbage (`flavor: "last-resort"`, what it
 * runs before it would run out of memory: two to seven memory-reducing full collections), which gives the memory it
 * frees back to the system, where one plain full collection keeps the heap the spell grew (the test: a heap grown by
 * 120 MiB and dropped, 150–170 MiB RSS after `gc()`, 55 after this). Issue 63, the service on PostgreSQL, two runs
 * each: idle RSS 117.7 and 118.0 MiB with `gc()`, 107.7 and 108.0 with this. Its pause is longer (it blocks the event
 * loop: 187 against 80 ms with 50 MiB live on a loaded machine), and the code it drops is compiled again on use, so
 * the first sign-ins after a quiet spell take some 15–20 ms longer: both fall in a window that was quiet. Undefined
 * where the process has no `gc` (run without `--expose-gc`).
 */
export function memoryReducingCollection(gc: typeof globalThis.gc = globalThis.gc): (() => void) | undefined {
  if (typeof gc !== "function") return undefined;
  return () => gc({ type: "major", execution: "sync", flavor: "last-resort" });
}

/**
 * Collects after a busy spell when `collect` is given, or when the process runs with `--expose-gc` (the
 * production flags, production-process.ts); otherwise (tests, the source run bare) it does nothing.
 */
export function registerQuietCollection(
  app: FastifyInstance,
  collect: (() => void) | undefined = memoryReducingCollection(),
  options: QuietCollectionOptions = quietCollectionDefaults,
): void {
  if (!collect) return;
  const collector = new QuietCollector(options);
  // The callback form: no promise per request on the hot path.
  app.addHook("onResponse", (_request, _reply, done) => {
    collector.served();
    done();
  });
  const timer = setInterval(() => {
    if (!collector.windowEnded()) return;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    collect();
    // The collection blocks the event loop: its pause is logged beside what it gave back.
    const pauseMs = Math.round(performance.now() - started);
    const mib = (bytes: number) => Math.round(bytes / 1048576);
    app.log.info(
      { rssBeforeMiB: mib(before), rssAfterMiB: mib(process.memoryUsage.rss()), pauseMs },
      "heap collected after a busy spell",
    );
  }, options.windowMs).unref();
  app.addHook("onClose", async () => clearInterval(timer));
}
