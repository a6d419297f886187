import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { CheckQueue } from "../crypto/check-queue.ts";

// The lines of DSTU checks in worker threads (issue 80: Diia's callbacks, BankID's envelopes; worker-line.ts), one
// set of metrics labelled by line: how many wait, how long a turn and a check take, and how many were refused (429).
// The line filling is the sign that the method's thread, not the event loop, is what a rush is waiting for.

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Starts watching a line: `line` is its label ("diia", "bankid"); the queue's timing and refusals are counted. */
export type WatchCheckLine = (line: string, queue: CheckQueue) => void;

export function checkLineMetrics(registry: Registry): WatchCheckLine {
  const lines = new Map<string, CheckQueue>();
  const seconds = new Histogram({
    name: "kpi_id_dstu_check_seconds",
    help: "DSTU checks in a worker thread, by line (diia, bankid): the wait for a turn (phase=wait) and the check itself (phase=check)",
    labelNames: ["line", "phase"],
    buckets,
    registers: [registry],
  });
  const refused = new Counter({
    name: "kpi_id_dstu_checks_refused_total",
    help: "DSTU checks refused with 429 before they ran, by line and reason (full: 64 waiting; timeout: 10 s waited)",
    labelNames: ["line", "reason"],
    registers: [registry],
  });
  new Gauge({
    name: "kpi_id_dstu_checks",
    help: "DSTU checks running and waiting for a turn now, by line and state",
    labelNames: ["line", "state"],
    registers: [registry],
    collect() {
      for (const [line, queue] of lines) {
        this.set({ line, state: "running" }, queue.running);
        this.set({ line, state: "waiting" }, queue.waiting);
      }
    },
  });
  return (line, queue) => {
    lines.set(line, queue);
    queue.onTiming = (timing) => {
      seconds.observe({ line, phase: "wait" }, timing.waitedMs / 1000);
      seconds.observe({ line, phase: "check" }, timing.ranMs / 1000);
    };
    queue.onRefused = (reason) => refused.inc({ line, reason });
  };
}
