import net from "node:net";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { openDatabase } from "../../../src/platform/db/index.ts";
import { isDatabaseUnavailable } from "../../../src/platform/http/database-errors.ts";
import { createTestApp, type TestApp, testConfig } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { createTestDatabase } from "../../support/databases.ts";

// Only PostgreSQL has connections that can be cut from outside; PGlite lives in the process.
describe.runIf(process.env.DATABASE_URL)("a PostgreSQL connection cut while checked out", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("postgres", {}, { protocols: [] });
  });
  afterAll(() => t.close());

  it("neither crashes the process nor breaks the pool: the transaction fails, the next request succeeds", async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const outcome = t.app.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Between two queries of this transaction the server ends the connection, as a restart does (57P01).
        const pid = rows[0]?.pid;
        await admin.query("select pg_terminate_backend($1)", [pid]);
        // Wait for the backend to be gone, not for a guessed time.
        let alive = true;
        while (alive) alive = !!(await admin.query("select 1 from pg_stat_activity where pid = $1", [pid])).rowCount;
        await sql`select 1`.execute(trx);
      });
      // Which words node-postgres uses depends on the moment (57P01, ECONNRESET, "connection error"):
      // each is one the service classifies as "the database went away", which is what answers 503.
      const failure = await outcome.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    } finally {
      await admin.end();
    }
    expect((await t.app.inject({ url: "/ready" })).statusCode).toBe(200);
  });
});

/** A TCP relay to PostgreSQL that can be cut (connections reset, new ones refused) and restored on the same port. */
async function startRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe.runIf(process.env.DATABASE_URL)("PostgreSQL going away and coming back", () => {
  it("answers 503 service.database_unavailable quickly while it is away, and serves again by itself", async () => {
    const database = await createTestDatabase("postgres");
    const direct = new URL(process.env.DATABASE_URL ?? "");
    const relay = await startRelay(direct);
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(database.handle.db)).rows[0]
      ?.name;
    const viaRelay = new URL(direct);
    viaRelay.port = String(relay.port);
    viaRelay.pathname = `/${name}`;
    const handle = await openDatabase({ url: viaRelay.toString(), dataDir: "unused", poolMax: 3 });
    const app = await buildApp({ config: testConfig(), database: handle, logger: false });
    try {
      await app.ready();
      await addPerson(app, { username: "steady", fullName: "Стійка Особа" }, "steady passphrase");
      const cookie = await signIn(app, "steady", "steady passphrase");
      await relay.cut();
      for (const url of ["/user", "/ready", "/api/settings"]) {
        const started = performance.now();
        const response = await app.inject({ url, headers: { cookie } });
        if (url === "/api/settings" && response.statusCode === 200) continue; // answers without the database
        expect(response.statusCode, `${url}: ${response.body}`).toBe(503);
        expect(response.json().code).toBe("service.database_unavailable");
        // Connection refused fails at once; only the pool's 5 s connect timeout could be slower.
        expect(performance.now() - started).toBeLessThan(6_000);
      }
      expect((await app.inject({ url: "/health" })).statusCode).toBe(200);
      await relay.restore();
      expect((await app.inject({ url: "/ready" })).statusCode).toBe(200);
      expect((await app.inject({ url: "/user", headers: { cookie } })).statusCode).toBe(200);
    } finally {
      await app.close();
      relay.close();
      await database.dispose();
    }
  });
});
