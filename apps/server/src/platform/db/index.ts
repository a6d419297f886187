import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { privateDirectoryMode, protectDataDir, restrictTree } from "./data-dir-modes.ts";
import { acquireLockFile } from "./lock-file.ts";
import { type ChannelHandlers, type ChannelSubscription, listenOnPglite, listenOnPostgres } from "./notifications.ts";
import { preparingPool } from "./prepared-statements.ts";
import type { Database } from "./schema.ts";
import { observedDialect, type StatementListener, statementListeners } from "./statement-listeners.ts";

export type { ChannelHandlers, ChannelSubscription } from "./notifications.ts";
export type { Database } from "./schema.ts";
export type { StatementListener } from "./statement-listeners.ts";
export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseOptions {
  /** A PostgreSQL URL; without one the embedded PGlite database is used. */
  url?: string;
  /** Where PGlite keeps its files; "memory://" keeps nothing on disk (tests). */
  dataDir: string;
  poolMax?: number;
  /** PostgreSQL only: named prepared statements per connection (default on; see prepared-statements.ts). */
  preparedStatements?: boolean;
  /** PGlite only: start from these files (a dump of a migrated database) instead of an empty cluster (tests). */
  loadDataDir?: Blob;
  /**
   * PGlite only: an instance already open, used instead of making one (the tests' pool of migrated databases,
   * test/support/pglite-pool.ts). Closing the handle closes it.
   */
  pglite?: PGlite;
  /**
   * PGlite on disk only: told the one line saying DATA_DIR's modes had to be corrected (data-dir-modes.ts);
   * by default it goes to stderr.
   */
  warn?: (line: string) => void;
}

const warnOnStderr = (line: string) => {
  process.stderr.write(`kpi-id: warning: ${line}\n`);
};

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** PostgreSQL's address and statement mode, for a helper process that opens its own connections. */
  postgres?: { url: string; preparedStatements: boolean };
  /** Answers whether the database can be reached right now (for /ready). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Connection pool use, for metrics; PGlite has one connection. */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * Runs multi-statement SQL scripts (migrations) in one transaction. Kysely
   * sends single statements only, so this reaches under it to each driver.
   */
  scriptTransaction<T>(run: (tx: ScriptTransaction) => Promise<T>): Promise<T>;
  /** Tells `listener` the text of every statement sent through `db` until the answer is called (tests count them). */
  onStatement(listener: StatementListener): () => void;
  /** Tells `listener` the text of every statement sent through `db` once it is committed. */
  onCommitted(listener: StatementListener): () => void;
  /** Listens on a notification channel (LISTEN/NOTIFY) until the subscription is closed. */
  listen(channel: string, handlers: ChannelHandlers): ChannelSubscription;
  /** PGlite only: its files as one archive, which `loadDataDir` starts from (tests copy a migrated database). */
  dumpDataDir?(): Promise<Blob>;
}

export interface ScriptTransaction {
  exec(script: string): Promise<void>;
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
}

function openPostgres(url: string, poolMax: number, preparedStatements: boolean): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    // Fail fast instead of hanging when the server is gone; callers answer 503.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // Nor may a checked-out client between two queries (a database restart sends it 57P01):
  // without a listener its 'error' event would throw. The query in flight, or the next one,
  // still fails and the pool drops the broken client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const listeners = statementListeners();
  const dialect = new PostgresDialect({ pool: preparedStatements ? preparingPool(pool, pg.Client) : pool });
  const db = new Kysely<Database>({ dialect: observedDialect(dialect, listeners) });
  return {
    db,
    kind: "postgres",
    postgres: { url, preparedStatements },
    onStatement: listeners.add,
    onCommitted: listeners.addCommitted,
    listen: (channel, handlers) => listenOnPostgres(url, pool, channel, handlers),
    ping: () => ping(db),
    close: async () => {
      await db.destroy();
      // Kysely ends the pool only if it used it; migrations alone (scriptTransaction) leave it open otherwise,
      // and an open connection keeps a migrated database from being copied (CREATE DATABASE … TEMPLATE).
      if (!pool.ended) await pool.end();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    scriptTransaction: async (run) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await run({
          exec: async (script) => {
            await client.query(script);
          },
          query: async <Row>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as Row[],
        });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** A PGlite instance in memory, from `loadDataDir`'s files when given, with the extensions the migrations create. */
export async function createMemoryPglite(loadDataDir?: Blob): Promise<PGlite> {
  const { PGlite, extensions } = await loadPglite();
  return PGlite.create({ extensions, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** PGlite and the extensions the migrations create, loaded on first use (an instance on PostgreSQL never does). */
export async function loadPglite() {
  // PGlite is loaded for the embedded database only: an instance on PostgreSQL never holds it (issue 41).
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  // The PostgreSQL extensions migrations create; PGlite ships them as modules loaded here.
  return { PGlite, extensions: { pg_trgm } };
}

async function openPglite(
  dataDir: string,
  loadDataDir?: Blob,
  open?: PGlite,
  warn: (line: string) => void = warnOnStderr,
): Promise<DatabaseHandle> {
  let release = () => {};
  // On disk, the files PGlite wrote with its own modes are made private again after it opens and closes.
  let restrictWritten = () => {};
  let pglite: PGlite;
  if (open) {
    pglite = open;
  } else if (dataDir === "memory://") {
    pglite = await createMemoryPglite(loadDataDir);
  } else {
    const { PGlite, extensions } = await loadPglite();
    mkdirSync(dataDir, { recursive: true, mode: privateDirectoryMode });
    release = acquireLockFile(join(dataDir, "pglite.lock"));
    restrictWritten = () => {
      restrictTree(dataDir);
    };
    try {
      // Under the lock: a process refused by it changes nothing of the one that holds it.
      protectDataDir(dataDir, warn);
      pglite = await PGlite.create(join(dataDir, "pglite"), { extensions });
      restrictWritten();
    } catch (error) {
      release();
      throw error;
    }
  }
  const listeners = statementListeners();
  const db = new Kysely<Database>({ dialect: observedDialect(new PGliteDialect({ pglite }), listeners) });
  let closing: Promise<void> | undefined;
  return {
    db,
    kind: "pglite",
    onStatement: listeners.add,
    onCommitted: listeners.addCommitted,
    listen: (channel, handlers) => listenOnPglite(pglite, channel, handlers),
    ping: () => ping(db),
    close: () => {
      closing ??= (async () => {
        try {
          await db.destroy();
          // Kysely closes the instance only if it ever sent a statement through it.
          if (!pglite.closed) await pglite.close();
          restrictWritten();
        } finally {
          release();
        }
      })();
      return closing;
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    dumpDataDir: () => pglite.dumpDataDir("none"),
    scriptTransaction: (run) =>
      pglite.transaction((tx) =>
        run({
          exec: async (script) => {
            await tx.exec(script);
          },
          query: async <Row>(text: string, params: unknown[] = []) => (await tx.query<Row>(text, params)).rows,
        }),
      ),
  };
}

async function ping(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options.poolMax ?? 10, options.preparedStatements ?? true);
  return openPglite(options.dataDir, options.loadDataDir, options.pglite, options.warn);
}
