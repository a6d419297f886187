import { createApplication, createUser, grantAccess } from "@kpi-id/server/testing";
import { sql } from "kysely";
import { sequentialTimings } from "./lib/measure.ts";
import { type BenchApp, startBenchApp } from "./lib/server-app.ts";
import type { Comparison, Measurement } from "./lib/types.ts";

export const title = "Cost against data size: people, sessions and audit rows (BENCH_SCALE)";

// Generating a million rows of each takes minutes, so this runs only when asked:
// BENCH_SCALE=1000,100000,1000000 npm run bench -- scale
const sizes = (process.env.BENCH_SCALE ?? "")
  .split(",")
  .map(Number)
  .filter((size) => Number.isInteger(size) && size > 0);
const origin = "http://127.0.0.1:1";
const password = "bench passphrase for the scale run";
const secondsPerRun = 3;
// Small enough for each statement to finish within the service's 15 s statement timeout on a busy machine.
const batch = 20_000;

/** `rows` generated people, sessions among them, and audit rows over the past year, in batches. */
async function generate(bench: BenchApp, rows: number, passwordHash: string) {
  const { db } = bench.app;
  for (let start = 0; start < rows; start += batch) {
    const end = Math.min(rows, start + batch);
    await sql`with people as (
        insert into users (username, password_hash, full_name, student_id)
        select 'person' || n, ${passwordHash}, 'Generated Person ' || n, 'KV-' || n
        from generate_series(${start}::int, ${end - 1}::int) n
        returning id, username)
      insert into sessions (token_hash, user_id, auth_method, idle_expires_at, absolute_expires_at)
      select sha256(('session ' || substring(username from 7))::bytea), id, 'PASSWORD',
        now() + interval '1 hour', now() + interval '1 day'
      from people`.execute(db);
    await sql`insert into audit_events (occurred_at, event_type, result, auth_method, ip)
      select now() - (n % 365) * interval '1 day', 'sign_in', 'success', 'PASSWORD', '10.0.0.1'
      from generate_series(${start}::int, ${end - 1}::int) n`.execute(db);
  }
  await sql`analyze`.execute(db);
}

interface Figures {
  user: Measurement;
  ticket: Measurement;
  signIn: Measurement;
  plans: string[];
}

const measurement = (label: string, timed: { rate: number; p50Ms: number; p99Ms: number }): Measurement => ({
  label,
  value: timed.rate,
  unit: "/s",
  p50Ms: timed.p50Ms,
  p99Ms: timed.p99Ms,
});

async function explain(bench: BenchApp, statement: ReturnType<typeof sql>): Promise<string> {
  const { rows } = await sql<{ "QUERY PLAN": string }>`explain ${statement}`.execute(bench.app.db);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

async function measureAt(rows: number): Promise<Figures> {
  // The session cache off: GET /user's row measures its statement against the data's size, not memory.
  const bench = await startBenchApp({ TICKET_TTL_SECONDS: "3600", SESSION_CACHE_ENTRIES: "0" });
  try {
    const { app } = bench;
    const person = await createUser(app.db, app.passwordHasher, { username: "scaled", fullName: "Scaled" }, password);
    const { password_hash: passwordHash } = await app.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", person.id)
      .executeTakeFirstOrThrow();
    await generate(bench, rows, String(passwordHash));
    const { application, secret } = await createApplication(app.db, {
      name: "campus",
      title: "Campus",
      description: "A connected site",
      callbackUrl: "https://campus.kpi.ua/callback",
    });
    await grantAccess(app.db, person.id, application.id);
    const headers = { "content-type": "application/json", origin };
    const signIn = async () => {
      const auth = await app.inject({
        method: "POST",
        url: "/api/auth",
        headers,
        payload: { username: "scaled", password },
      });
      const internal = await app.inject({ method: "POST", url: "/api/auth/internal", headers, payload: auth.body });
      const cookie = internal.cookies.find((c) => c.name === "kpi_id_session");
      if (!cookie) throw new Error(`sign-in failed: ${auth.statusCode} ${internal.statusCode}`);
      return `${cookie.name}=${cookie.value}`;
    };
    const cookie = await signIn();
    const user = await sequentialTimings(async () => {
      const response = await app.inject({ url: "/user", headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`GET /user answered ${response.statusCode}`);
    }, secondsPerRun * 1000);
    const tickets: string[] = [];
    for (let i = 0; i < 300; i++) {
      const redirect = await app.inject({ url: `/api/app-redirect?appId=${application.id}`, headers: { cookie } });
      tickets.push(new URL(String(redirect.headers.location)).searchParams.get("ticketId") ?? "");
    }
    const ticket = await sequentialTimings(
      async () => {
        const payload = { ticketId: tickets.pop(), appId: application.id, appSecret: secret };
        const response = await app.inject({ method: "POST", url: "/api/ticket", payload });
        if (response.statusCode !== 200) throw new Error(`ticket exchange answered ${response.statusCode}`);
      },
      secondsPerRun * 1000,
      2,
      tickets.length - 2,
    );
    const signIns = await sequentialTimings(signIn, secondsPerRun * 1000);
    const plans = [
      await explain(
        bench,
        sql`select * from sessions join users on users.id = sessions.user_id where sessions.token_hash = sha256('session 7'::bytea)`,
      ),
      await explain(bench, sql`select * from users where lower(username) = 'person7'`),
      await explain(
        bench,
        sql`select * from audit_events where user_id = ${person.id} order by occurred_at desc limit 100`,
      ),
      await explain(
        bench,
        sql`delete from audit_events where id in (select id from audit_events where occurred_at < now() - interval '400 days' order by occurred_at limit 50000)`,
      ),
    ];
    return {
      user: measurement(`GET /user with ${rows.toLocaleString("en")} of each`, user),
      ticket: measurement(`ticket exchange with ${rows.toLocaleString("en")} of each`, ticket),
      signIn: measurement(`password sign-in with ${rows.toLocaleString("en")} of each`, signIns),
      plans,
    };
  } finally {
    await bench.close();
  }
}

export async function run(): Promise<Comparison[]> {
  if (sizes.length === 0) {
    console.log("  skipped: set BENCH_SCALE=1000,100000,1000000 to run it\n");
    return [];
  }
  const figures: Figures[] = [];
  for (const size of sizes) figures.push(await measureAt(size));
  const [smallest] = figures;
  const largest = figures.at(-1);
  if (!smallest || !largest) return [];
  console.log(`  query plans with ${sizes.at(-1)?.toLocaleString("en")} rows of each:\n`);
  for (const plan of largest.plans) console.log(`${plan.replace(/^/gm, "    ")}\n`);
  const method = "app.inject, one in flight, against the smallest size in the same run";
  return figures.slice(1).flatMap((figure) => [
    { subject: figure.user, baseline: smallest.user, method },
    { subject: figure.ticket, baseline: smallest.ticket, method },
    { subject: figure.signIn, baseline: smallest.signIn, method },
  ]);
}
