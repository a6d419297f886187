import type {
  AbortableOperationOptions,
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  TransactionSettings,
} from "kysely";
import { traceStatement } from "../tracing/hooks.ts";

/** Told the text of every statement sent to the database through Kysely (`begin` and `commit` included). */
export type StatementListener = (text: string) => void;

export interface StatementListeners {
  add(listener: StatementListener): () => void;
  notify(text: string): void;
  /** Told each statement once its change is committed: at once outside a transaction, at commit inside one. */
  addCommitted(listener: StatementListener): () => void;
  committed(text: string): void;
}

function listenerSet() {
  const listeners = new Set<StatementListener>();
  return {
    add(listener: StatementListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tell(text: string) {
      for (const listener of listeners) listener(text);
    },
  };
}

export function statementListeners(): StatementListeners {
  const sent = listenerSet();
  const committed = listenerSet();
  return { add: sent.add, notify: sent.tell, addCommitted: committed.add, committed: committed.tell };
}

/**
 * A driver that tells the listeners each statement, the same way on both databases: PostgreSQL's driver
 * sends `begin` and `commit` as queries on the connection, PGlite's opens its own transaction, so
 * transaction control is told here once and the connection's own queries for it are not told again.
 */
class ObservedDriver implements Driver {
  private readonly observed = new WeakSet<DatabaseConnection>();
  private readonly controlling = new WeakSet<DatabaseConnection>();
  /**
   * The statements of each connection's open transaction, told as committed when it commits. A set
   * of texts: a long transaction (an import's check runs 10,000 lines in one) repeats a few dozen
   * texts over and over, and the listeners need each only once.
   */
  private readonly transactions = new WeakMap<DatabaseConnection, Set<string>>();

  private readonly inner: Driver;
  private readonly listeners: StatementListeners;

  constructor(inner: Driver, listeners: StatementListeners) {
    this.inner = inner;
    this.listeners = listeners;
  }

  init: Driver["init"] = (options) => this.inner.init(options);
  destroy: Driver["destroy"] = (options) => this.inner.destroy(options);
  releaseConnection: Driver["releaseConnection"] = (connection, options) =>
    this.inner.releaseConnection(connection, options);

  async acquireConnection(options?: Parameters<Driver["acquireConnection"]>[0]): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection(options);
    if (!this.observed.has(connection)) {
      this.observed.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery, executeOptions?: AbortableOperationOptions) => {
        if (this.controlling.has(connection)) return execute<R>(query, executeOptions);
        this.listeners.notify(query.sql);
        try {
          return await traceStatement(query.sql, () => execute<R>(query, executeOptions));
        } finally {
          // Told even when it failed: its answer may be what was lost, after the change was made.
          const transaction = this.transactions.get(connection);
          if (transaction) transaction.add(query.sql);
          else this.listeners.committed(query.sql);
        }
      };
    }
    return connection;
  }

  private async control(connection: DatabaseConnection, text: string, run: () => Promise<void>): Promise<void> {
    this.listeners.notify(text);
    this.controlling.add(connection);
    try {
      await traceStatement(text, run);
    } finally {
      this.controlling.delete(connection);
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.control(connection, "begin", () => this.inner.beginTransaction(connection, settings));
    this.transactions.set(connection, new Set());
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.control(connection, "commit", () => this.inner.commitTransaction(connection));
    } finally {
      // Told even when the commit's answer was lost: a reader then drops what it holds for nothing.
      const statements = this.transactions.get(connection) ?? new Set<string>();
      this.transactions.delete(connection);
      for (const text of statements) this.listeners.committed(text);
    }
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.transactions.delete(connection);
    await this.control(connection, "rollback", () => this.inner.rollbackTransaction(connection));
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]): Promise<void> {
    return this.inner.savepoint?.(connection, name, compile) ?? Promise.resolve();
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.rollbackToSavepoint?.(connection, name, compile) ?? Promise.resolve();
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) {
    return this.inner.releaseSavepoint?.(connection, name, compile) ?? Promise.resolve();
  }
}

/** The dialect Kysely is given: the database's own, with its driver observed. */
export function observedDialect(dialect: Dialect, listeners: StatementListeners): Dialect {
  return {
    createDriver: () => new ObservedDriver(dialect.createDriver(), listeners),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
