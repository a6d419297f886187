import type { DatabaseConnection, Dialect, Driver, QueryCompiler, TransactionSettings } from "kysely";

/** Told the text of every statement sent to the database through Kysely (`begin` and `commit` included). */
export type StatementListener = (text: string) => void;

export interface StatementListeners {
  add(listener: StatementListener): () => void;
  notify(text: string): void;
}

export function statementListeners(): StatementListeners {
  const listeners = new Set<StatementListener>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(text) {
      for (const listener of listeners) listener(text);
    },
  };
}

/**
 * A driver that tells the listeners each statement, the same way on both databases: PostgreSQL's driver
 * sends `begin` and `commit` as queries on the connection, PGlite's opens its own transaction, so
 * transaction control is told here once and the connection's own queries for it are not told again.
 */
class ObservedDriver implements Driver {
  private readonly observed = new WeakSet<DatabaseConnection>();
  private readonly controlling = new WeakSet<DatabaseConnection>();

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
      connection.executeQuery = (query, executeOptions) => {
        if (!this.controlling.has(connection)) this.listeners.notify(query.sql);
        return execute(query, executeOptions);
      };
    }
    return connection;
  }

  private async control(connection: DatabaseConnection, text: string, run: () => Promise<void>): Promise<void> {
    this.listeners.notify(text);
    this.controlling.add(connection);
    try {
      await run();
    } finally {
      this.controlling.delete(connection);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.control(connection, "begin", () => this.inner.beginTransaction(connection, settings));
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.control(connection, "commit", () => this.inner.commitTransaction(connection));
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.control(connection, "rollback", () => this.inner.rollbackTransaction(connection));
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
