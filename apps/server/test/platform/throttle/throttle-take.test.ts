import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delayAfterFailures, type ThrottleRule, throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { takeAttempt } from "../../../src/platform/throttle/throttle.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { databaseKinds } from "../../support/databases.ts";

const now = new Date("2026-03-01T09:00:00Z");

/**
 * The throttle's arithmetic runs in the database (`throttle_take`, one round trip per check) while the
 * rules and their documented delays stay in policy.ts: for every rule and every count up to past its
 * lock, the wait the function sets is the one delayAfterFailures names.
 */
describe.each(databaseKinds)("throttle_take keeps policy.ts's delays (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  /** The wait after the `failures`-th failure, found by counting one check onto a key that had one fewer. */
  async function waitAfter(name: string, rule: ThrottleRule, failures: number): Promise<number> {
    const key = `test:${name}:${failures}`;
    await t.app.db
      .insertInto("throttle_counters")
      .values({ key, failures: failures - 1, first_failure_at: now, last_failure_at: now })
      .execute();
    expect(await takeAttempt(t.app.db, [{ key, rule }], now)).toEqual({ allowed: true });
    const row = await t.app.db
      .selectFrom("throttle_counters")
      .select(["failures", "blocked_until"])
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(failures);
    return row.blocked_until ? (row.blocked_until.getTime() - now.getTime()) / 1000 : 0;
  }

  it("sets the wait policy.ts names after each failure, for every rule", async () => {
    for (const [name, rule] of Object.entries(throttlePolicy)) {
      const last = (rule as ThrottleRule).lock?.afterFailures ?? rule.freeFailures + 8;
      const counts = [1, rule.freeFailures, rule.freeFailures + 1, rule.freeFailures + 2, rule.freeFailures + 3, last];
      for (const failures of [...new Set(counts)].filter((count) => count >= 1)) {
        expect(await waitAfter(name, rule, failures), `${name} after ${failures}`).toBe(
          delayAfterFailures(rule, failures),
        );
      }
    }
  });

  it("refuses while a key waits, counting nothing, and says for how long", async () => {
    const rule = throttlePolicy.account;
    const key = "test:blocked";
    await t.app.db
      .insertInto("throttle_counters")
      .values({
        key,
        failures: 4,
        first_failure_at: now,
        last_failure_at: now,
        blocked_until: new Date(now.getTime() + 90_000),
      })
      .execute();
    expect(await takeAttempt(t.app.db, [{ key, rule }], now)).toEqual({ allowed: false, retryAfterSeconds: 90 });
    const row = await t.app.db
      .selectFrom("throttle_counters")
      .select("failures")
      .where("key", "=", key)
      .executeTakeFirst();
    expect(row?.failures).toBe(4);
  });

  it("starts the count again once the rule forgets, from the last failure or from the first", async () => {
    const longAgo = new Date(now.getTime() - 2 * 60 * 60 * 1000);
    for (const [name, rule] of [
      ["account", throttlePolicy.account],
      ["ip", throttlePolicy.ip],
    ] as const) {
      const key = `test:forget:${name}`;
      await t.app.db
        .insertInto("throttle_counters")
        .values({ key, failures: 9, first_failure_at: longAgo, last_failure_at: longAgo })
        .execute();
      expect(await takeAttempt(t.app.db, [{ key, rule }], now)).toEqual({ allowed: true });
      const row = await t.app.db
        .selectFrom("throttle_counters")
        .select(["failures", "first_failure_at"])
        .where("key", "=", key)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ failures: 1, first_failure_at: now });
    }
  });
});
