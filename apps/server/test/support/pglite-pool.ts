// A test worker's migrated PGlite instances, lent to one test database at a time and put back to the migrated
// state between loans (issue 41). Starting an instance from the migrated files costs about 0.6 s of CPU (its
// files unpacked into memory, PostgreSQL's start-up, and the garbage they leave); putting one back costs a tenth
// of that. Vitest runs the server's files one after another in each worker sharing their modules
// (vitest.config.ts: isolate false), so the instances outlive a file.
//
// A loan sees what a new instance would: the same tables, functions and rows as the migrated files (checked by a
// fingerprint of the schema before the instance is reused; one a test changed is closed instead), empty tables,
// sequences from the start, no session settings, listeners or locks. A loan ends when its handle closes: the
// lent instance then refuses every call as a closed PGlite does, so a timer a finished test left behind fails
// there instead of writing into the next test's database.
import type { PGlite } from "@electric-sql/pglite";
import { createMemoryPglite } from "../../src/platform/db/index.ts";
import { fingerprint, type MigratedState, readMigratedState } from "./migrated-state.ts";

/** Puts a returned instance back to the migrated state; false when a test changed its schema. */
async function putBack(pglite: PGlite, state: MigratedState): Promise<boolean> {
  // A transaction a test left open, then what DISCARD ALL forgets: settings, prepared statements, LISTEN,
  // advisory locks, temporary tables.
  await pglite.exec("rollback").catch(() => {});
  await pglite.exec("discard all");
  if ((await fingerprint(pglite)) !== state.fingerprint) return false;
  await pglite.transaction(async (tx) => {
    if (state.tables.length > 0) await tx.exec(`truncate ${state.tables.join(", ")} restart identity cascade`);
    for (const sequence of state.sequences) await tx.exec(`alter sequence ${sequence} restart`);
    for (const { table, json } of state.rows) {
      await tx.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [json]);
    }
  });
  return true;
}

/** What a loan's holder may not do once its handle is closed: everything but asking whether it is closed. */
function lend(pglite: PGlite, onClose: (stopListening: (() => Promise<void>)[]) => Promise<void>): PGlite {
  let closed = false;
  const stopListening: (() => Promise<void>)[] = [];
  // A listen still under way when the loan ends is waited for, so its callback is stopped with the others.
  const listening: Promise<unknown>[] = [];
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled(listening);
    await onClose(stopListening);
  };
  const refuse = async () => {
    throw new Error("PGlite is closed");
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === "closed") return closed || target.closed;
      if (property === "close" || property === Symbol.asyncDispose) return close;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (closed) return refuse;
      if (property === "listen") {
        return (...args: Parameters<PGlite["listen"]>) => {
          const started = target.listen(...args).then((stop) => {
            stopListening.push(stop);
            return stop;
          });
          listening.push(started);
          return started;
        };
      }
      // PGlite's methods reach its private fields, which exist on the instance, not on this proxy.
      return value.bind(target);
    },
  });
}

interface Pool {
  idle: PGlite[];
  state?: Promise<MigratedState>;
  /** Counts for the pool's own test: an instance lent again is the point of the pool. */
  stats: PglitePoolStats;
}

export interface PglitePoolStats {
  /** Instances started from the migrated files. */
  started: number;
  /** Loans of an instance put back after an earlier loan. */
  lentAgain: number;
  /** Instances closed when returned: a changed schema, a full pool, or a reset that failed. */
  closedOnReturn: number;
}

// On globalThis: a module the worker evaluates again must still find the same instances.
const poolKey = Symbol.for("kpi-id.test.pglite-pool");
const globals = globalThis as { [poolKey]?: Pool };
globals[poolKey] ??= { idle: [], stats: { started: 0, lentAgain: 0, closedOnReturn: 0 } };
const pool: Pool = globals[poolKey];
/** More than the most databases one file holds at once; more would only hold memory. */
const maxIdle = 3;

/**
 * A migrated PGlite instance from the worker's pool, or a new one from the migrated files. Closing it (as the
 * database handle does) returns it to the pool, put back to the migrated state.
 */
export async function borrowMigratedPglite(migratedFiles: Blob): Promise<PGlite> {
  const idle = pool.idle.pop();
  if (idle) pool.stats.lentAgain++;
  else pool.stats.started++;
  const pglite = idle ?? (await createMemoryPglite(migratedFiles));
  pool.state ??= readMigratedState(pglite);
  const state = await pool.state;
  return lend(pglite, (stopListening) => giveBack(pglite, state, stopListening));
}

async function giveBack(pglite: PGlite, state: MigratedState, stopListening: (() => Promise<void>)[]): Promise<void> {
  try {
    for (const stop of stopListening) await stop();
    if (pool.idle.length < maxIdle && !pglite.closed && (await putBack(pglite, state))) {
      pool.idle.push(pglite);
      return;
    }
  } catch {
    // An instance that cannot be put back is not lent again.
  }
  pool.stats.closedOnReturn++;
  if (!pglite.closed) await pglite.close().catch(() => {});
}

/** The worker's counts so far. */
export function pglitePoolStats(): PglitePoolStats {
  return { ...pool.stats };
}
