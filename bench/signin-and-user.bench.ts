import { createApplication, createUser, grantAccess } from "@kpi-id/server/testing";
import { hash } from "@node-rs/argon2";
import Fastify from "fastify";
import { httpLoad } from "./lib/http-load.ts";
import { sequentialTimings } from "./lib/measure.ts";
import { type BenchApp, startBenchApp } from "./lib/server-app.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "Password sign-in and GET /user";

const password = "bench passphrase for one person";
const origin = "http://127.0.0.1:1";
const secondsPerRun = 3;
const loadSeconds = 5;

async function seedPerson(bench: BenchApp) {
  const { app } = bench;
  const user = await createUser(
    app.db,
    app.passwordHasher,
    { username: "bench", fullName: "Bench Person", studentId: "KV-0001", email: "bench@kpi.ua" },
    password,
  );
  for (const name of ["campus", "library", "schedule"]) {
    const { application } = await createApplication(app.db, {
      name,
      title: name,
      description: "A connected site",
      callbackUrl: `https://${name}.kpi.ua/callback`,
    });
    await grantAccess(app.db, user.id, application.id);
  }
}

/** The whole password sign-in the browser makes: credentials for a grant, the grant for a cookie. */
async function signIn(bench: BenchApp): Promise<string> {
  const headers = { "content-type": "application/json", origin };
  const auth = await bench.app.inject({
    method: "POST",
    url: "/api/auth",
    headers,
    payload: JSON.stringify({ username: "bench", password }),
  });
  const internal = await bench.app.inject({ method: "POST", url: "/api/auth/internal", headers, payload: auth.body });
  const cookie = internal.cookies.find((c) => c.name === "kpi_id_session");
  if (internal.statusCode !== 200 || !cookie) throw new Error(`sign-in failed: ${auth.body} ${internal.body}`);
  return `${cookie.name}=${cookie.value}`;
}

async function compareSignIns(bench: BenchApp): Promise<Comparison> {
  const { memoryCost, timeCost, parallelism } = bench.app.config.argon2;
  const parameters = { algorithm: 2, memoryCost, timeCost, parallelism } as const;
  const raw = await sequentialTimings(() => hash(password, parameters), secondsPerRun * 1000);
  const signIns = await sequentialTimings(() => signIn(bench), secondsPerRun * 1000);
  return {
    subject: {
      label: "password sign-ins (POST /api/auth + /api/auth/internal)",
      value: signIns.rate,
      unit: "/s/core",
      p50Ms: signIns.p50Ms,
      p99Ms: signIns.p99Ms,
    },
    baseline: {
      label: `raw argon2id hashes (m=${memoryCost} t=${timeCost} p=${parallelism})`,
      value: raw.rate,
      unit: "/s/core",
      p50Ms: raw.p50Ms,
      p99Ms: raw.p99Ms,
    },
    method: `app.inject, one request in flight, ${bench.databaseKind}`,
  };
}

/** A bare Fastify route answering the same JSON: what the framework and the loopback cost alone. */
async function bareRouteRate(body: string) {
  const bare = Fastify({ logger: false });
  bare.get("/user", async (_request, reply) => reply.type("application/json").send(body));
  const url = await bare.listen({ host: "127.0.0.1", port: 0 });
  try {
    return await httpLoad(`${url}/user`, loadSeconds);
  } finally {
    await bare.close();
  }
}

async function compareUserReads(bench: BenchApp, label: string): Promise<Comparison> {
  const cookie = await signIn(bench);
  const url = await bench.app.listen({ host: "127.0.0.1", port: 0 });
  const sample = await fetch(`${url}/user`, { headers: { cookie } });
  if (sample.status !== 200) throw new Error(`GET /user answered ${sample.status}`);
  const body = await sample.text();
  const baseline = await bareRouteRate(body);
  const measured = await httpLoad(`${url}/user`, loadSeconds, { cookie });
  if (measured.failed > 0) throw new Error(`${measured.failed} GET /user requests failed`);
  return {
    subject: {
      label,
      value: measured.requestsPerSecond,
      unit: "req/s",
      p50Ms: measured.p50Ms,
      p99Ms: measured.p99Ms,
    },
    baseline: {
      label: "bare Fastify route with the same JSON",
      value: baseline.requestsPerSecond,
      unit: "req/s",
      p50Ms: baseline.p50Ms,
      p99Ms: baseline.p99Ms,
    },
    method: `autocannon, 10 connections × ${loadSeconds} s each on loopback, ${bench.databaseKind}`,
  };
}

export async function run(): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  const bench = await startBenchApp();
  try {
    await seedPerson(bench);
    comparisons.push(await compareSignIns(bench));
    comparisons.push(await compareUserReads(bench, "GET /user (from the session cache, the default)"));
  } finally {
    await bench.close();
  }
  // The same with the cache off: the one statement that reads the session, the person and their applications.
  const uncached = await startBenchApp({ SESSION_CACHE_ENTRIES: "0" });
  try {
    await seedPerson(uncached);
    comparisons.push(await compareUserReads(uncached, "GET /user, SESSION_CACHE_ENTRIES=0 (one statement each)"));
  } finally {
    await uncached.close();
  }
  return comparisons;
}
