import { randomBytes } from "node:crypto";
import { createUser, hashToken } from "@kpi-id/server/testing";
import { sql } from "kysely";
import { sequentialTimings } from "./lib/measure.ts";
import { startBenchApp } from "./lib/server-app.ts";
import type { Comparison, Measurement } from "./lib/types.ts";

export const title = "SCIM 2.0 reads at 100,000 people: a lookup, a changed-since sync, a page";

const people = 100_000;
const changed = 100;
const secondsPerRun = 3;
const origin = "http://127.0.0.1:1";
const password = "bench passphrase for scim";

const measurement = (label: string, timed: { rate: number; p50Ms: number; p99Ms: number }): Measurement => ({
  label,
  value: timed.rate,
  unit: "/s",
  p50Ms: timed.p50Ms,
  p99Ms: timed.p99Ms,
});

/**
 * What a source system asks most: "does this person exist" (userName eq), "who changed since my last
 * sync" (meta.lastModified gt, 100 of 100,000 changed), and a page of 200 deep in the list.
 */
export async function run(): Promise<Comparison[]> {
  // The default per-client limit (1,200 a minute) is what a nightly sync needs; this measures what the
  // service can answer, as an operator with a faster source would set it.
  const bench = await startBenchApp({ SCIM_REQUESTS_PER_MINUTE: "1000000" });
  try {
    const { db } = bench.app;
    for (let start = 0; start < people; start += 20_000) {
      await sql`with made as (
          insert into users (username, full_name, updated_at)
          select 'person' || n, 'Generated Person ' || n, timestamptz '2026-01-01' from generate_series(${start}::int, ${start + 19_999}::int) n
          returning id, substring(username from 7)::int as n)
        insert into student_records (user_id, student_id, status, source, is_primary)
        select id, 'KV-' || n, 'studying', 'bench', true from made`.execute(db);
    }
    await sql`update users set updated_at = timestamptz '2026-06-01' where username in (
        select 'person' || n from generate_series(1, ${changed}::int) n)`.execute(db);
    await sql`analyze`.execute(db);
    // A SCIM token as `scim token create` makes one: the kpiscim_ prefix, 256 random bits, kept as SHA-256.
    const token = `kpiscim_${randomBytes(32).toString("base64url")}`;
    await db
      .insertInto("scim_tokens")
      .values({ name: "bench", token_hash: hashToken(token).toString("hex") })
      .execute();
    const get = (url: string, expected: number) => async () => {
      const response = await bench.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      const listed = response.json<{ Resources?: unknown[] }>().Resources?.length;
      if (response.statusCode !== 200 || listed !== expected) {
        throw new Error(`${url} answered ${response.statusCode} with ${listed} resources`);
      }
    };
    let turn = 0;
    const lookup = await sequentialTimings(async () => {
      turn += 1;
      const name = `person${(turn * 7919) % people}`;
      await get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${name}"`)}`, 1)();
    }, secondsPerRun * 1000);
    const since = encodeURIComponent('meta.lastModified gt "2026-03-01T00:00:00Z"');
    const sync = await sequentialTimings(
      get(`/scim/v2/Users?filter=${since}&count=200`, changed),
      secondsPerRun * 1000,
    );
    const page = await sequentialTimings(
      get("/scim/v2/Users?sortBy=userName&startIndex=50001&count=200", 200),
      secondsPerRun * 1000,
    );

    await createUser(db, bench.app.passwordHasher, { username: "signing.in", fullName: "Signing In" }, password);
    const headers = { "content-type": "application/json", origin };
    const signIns = await sequentialTimings(async () => {
      const auth = await bench.app.inject({
        method: "POST",
        url: "/api/auth",
        headers,
        payload: { username: "signing.in", password },
      });
      const internal = await bench.app.inject({
        method: "POST",
        url: "/api/auth/internal",
        headers,
        payload: auth.body,
      });
      if (internal.statusCode !== 200) throw new Error(`sign-in failed: ${auth.statusCode} ${internal.statusCode}`);
    }, secondsPerRun * 1000);
    const method = `sequential, ${bench.databaseKind}, ${people} people with a student record each`;
    const baseline = measurement("password sign-in (argon2id verify, session)", signIns);
    return [
      { subject: measurement('GET /scim/v2/Users?filter=userName eq "…"', lookup), baseline, method },
      {
        subject: measurement(`GET /scim/v2/Users?filter=meta.lastModified gt … (${changed} changed)`, sync),
        baseline,
        method,
      },
      { subject: measurement("GET /scim/v2/Users?sortBy=userName&startIndex=50001&count=200", page), baseline, method },
    ];
  } finally {
    await bench.close();
  }
}
