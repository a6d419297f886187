import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/app.ts";

// Only PostgreSQL has connections that can be cut from outside; PGlite lives in the process.
describe.runIf(process.env.DATABASE_URL)("a PostgreSQL connection cut while checked out", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("postgres");
  });
  afterAll(() => t.close());

  it("neither crashes the process nor breaks the pool: the transaction fails, the next request succeeds", async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const outcome = t.app.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Between two queries of this transaction the server ends the connection, as a restart does (57P01).
        await admin.query("select pg_terminate_backend($1)", [rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
      });
      await expect(outcome).rejects.toThrow();
    } finally {
      await admin.end();
    }
    expect((await t.app.inject({ url: "/ready" })).statusCode).toBe(200);
  });
});
