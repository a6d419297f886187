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
 * Sends each query as a named prepared statement on its connection: PostgreSQL parses and plans a text
 * once per connection instead of on every call (profiling found planning the session lookup took twice
 * its execution), and each later call sends only Bind and Execute.
 */
function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  const prepared = new Set<string>();
  const query = async <R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    const values = [...parameters];
    const named = parameters.length > 0 && text.length <= longestPrepared;
    if (!named || (!prepared.has(text) && prepared.size >= preparedPerConnection)) {
      return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
    }
    prepared.add(text);
    const result = await client.query({ name: statementName(text), text, values });
    return result as unknown as PostgresQueryResult<R>;
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
