import { sql } from "kysely";
import type { Db } from "../../src/platform/db/schema.ts";

/**
 * Waits until another connection of this PostgreSQL database waits for a row lock, so a test holding one lock can
 * take its second only after the request under test has taken its first: the order that deadlocks when two code
 * paths lock the same rows in opposite orders.
 */
export async function untilSomeoneWaitsForALock(db: Db, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await sql<{ waiting: string }>`
      select count(*) as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (Number(rows[0]?.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no connection came to wait for a lock");
}
