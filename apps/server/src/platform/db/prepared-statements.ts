import { createHash } from "node:crypto";
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";

/**
 * Statement texts each connection keeps prepared. Kysely writes the same text for the same query shape,
 * so the service's few hundred shapes fit; a text past the cap (an `in (…)` list of a new length, say)
 * runs unnamed as before, so the server's memory per connection stays bounded.
 */
export const preparedPerConnection = 300;

// Longer texts are rare one-off statements (migrations, reports); planning them each time costs little.
const longestPrepared = 8_192;

function statementName(text: string): string {
  return `k${createHash("sha1").update(text).digest("base64url")}`;
}

/**
 * PostgreSQL refuses to run a prepared statement once a migration has changed the columns it answers (a
 * column added to a table it reads with `select *`): SQLSTATE 0A000, "cached plan must not change result
 * type". In a rolling upgrade that is every instance still running while the migration commits: 0.2.0,
 * which lacked this, failed every sign-in until it was replaced (the cluster's rolling upgrade measured it).
 */
function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    "code" in error &&
    error.code === "0A000" &&
    error.message.includes("cached plan must not change result type")
  );
}

/**
 * Sends each query as a named prepared statement on its connection: PostgreSQL parses and plans a text
 * once per connection instead of on every call (profiling found planning the session lookup took twice
 * its execution), and each later call sends only Bind and Execute. A statement a migration made stale is
 * prepared again under a new name; outside a transaction it is sent again at once (it did not run), inside
 * one the transaction has failed and the next use prepares it afresh.
 */
function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  /** Each prepared text and its statement's name (a new name once PostgreSQL found its plan stale). */
  const prepared = new Map<string, string>();
  let renamed = 0;
  const query = async <R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    const values = [...parameters];
    const named = parameters.length > 0 && text.length <= longestPrepared;
    if (!named || (!prepared.has(text) && prepared.size >= preparedPerConnection)) {
      return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
    }
    const name = prepared.get(text) ?? statementName(text);
    prepared.set(text, name);
    try {
      return (await client.query({ name, text, values })) as unknown as PostgresQueryResult<R>;
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      renamed += 1;
      const fresh = `${statementName(text)}_${renamed}`;
      prepared.set(text, fresh);
      if (client.getTransactionStatus() !== "I") throw error;
      return (await client.query({ name: fresh, text, values })) as unknown as PostgresQueryResult<R>;
    }
  };
  return {
    query: query as PostgresPoolClient["query"],
    release: (destroy?: boolean) => client.release(destroy),
  };
}

/** The pool Kysely sees: pg's own, with each of its connections wrapped once (Kysely keys state by client). */
export function preparingPool(pool: pg.Pool, Client: typeof pg.Client): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    Client,
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      let preparing = wrapped.get(client);
      if (!preparing) {
        preparing = preparingClient(client);
        wrapped.set(client, preparing);
      }
      return preparing;
    },
    end: () => pool.end(),
  };
}
