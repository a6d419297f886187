import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { PasswordHasher } from "../crypto/password.ts";

// What a password sign-in waits for (issue 80): its turn in the line of argon2id checks, the check itself, and
// its database statements. The rush bench names the largest of them as the instance's limit; the dashboard shows
// the line filling before sign-ins are refused.

const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface PasswordSignInMetrics {
  /** A password sign-in's database statements (lookup, attempt counted, grant and audit): their total seconds. */
  observeSignInDatabase(seconds: number): void;
}

export function passwordCheckMetrics(hasher: PasswordHasher, registry: Registry): PasswordSignInMetrics {
  const checks = new Histogram({
    name: "kpi_id_password_check_seconds",
    help: "argon2id checks: the wait for a turn in the instance's line (phase=wait) and the check itself (phase=argon2)",
    labelNames: ["phase"],
    buckets,
    registers: [registry],
  });
  const refused = new Counter({
    name: "kpi_id_password_checks_refused_total",
    help: "argon2id checks not made: the line full, the wait past PASSWORD_CHECK_WAIT_MS, or the client gone (reason)",
    labelNames: ["reason"],
    registers: [registry],
  });
  new Gauge({
    name: "kpi_id_password_checks",
    help: "argon2id checks running and waiting for a turn now (state)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      this.set({ state: "running" }, hasher.queue.running);
      this.set({ state: "waiting" }, hasher.queue.waiting);
    },
  });
  const database = new Histogram({
    name: "kpi_id_password_sign_in_database_seconds",
    help: "A password sign-in's time in its database statements (the user, the attempt counted, the grant and audit)",
    buckets,
    registers: [registry],
  });
  hasher.queue.onTiming = (timing) => checks.observe({ phase: "wait" }, timing.waitedMs / 1000);
  hasher.queue.onRefused = (reason) => refused.inc({ reason });
  hasher.onArgon2 = (milliseconds) => checks.observe({ phase: "argon2" }, milliseconds / 1000);
  return { observeSignInDatabase: (seconds) => database.observe(seconds) };
}
