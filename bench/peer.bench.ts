// Side by side with another identity server (issue 41): KPI ID against Glewlwyd, a C OpenID Connect provider
// Debian packages, through the same driver (bench/lib/code-flow.ts), in alternating rounds so the machine's
// noise falls on both. Needs DATABASE_URL (KPI ID runs on PostgreSQL) and `apt-get install glewlwyd`.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { staleBundleReason } from "@kpi-id/server/server-module";
import { type TestBrowser, testConfig } from "@kpi-id/server/testing";
import { hash, verify } from "@node-rs/argon2";
import { type CodeFlowProvider, refreshTokens, signInThroughCodeFlow, type Tokens } from "./lib/code-flow.ts";
import { glewlwydInstalled, glewlwydVersion, type RunningGlewlwyd, startGlewlwyd } from "./lib/glewlwyd.ts";
import { interleavedRounds, type Side, type SideTotals } from "./lib/interleaved-rounds.ts";
import { type RunningKpiId, startKpiIdProcess } from "./lib/kpi-id-process.ts";
import { goalRoom, libraryAloneIdleMiB, libraryRequests } from "./lib/library-process.ts";
import { percentile } from "./lib/measure.ts";
import { redirectUri } from "./lib/oidc-client.ts";
import { procStatusMiB } from "./lib/process-usage.ts";
import type { Comparison, Measurement } from "./lib/types.ts";

export const title = "Side by side with Glewlwyd (C, Debian): OpenID Connect sign-ins, refreshes, memory";

const password = "bench passphrase for the side-by-side run";
const maxInFlight = 8;
// Each in-flight worker signs in its own person: both servers rightly slow down many checks at once for one account.
const people = Array.from({ length: maxInFlight }, (_, index) => ({
  username: `peer${index}`,
  fullName: "Олена Коваленко",
}));
const rounds = Number(process.env.BENCH_PEER_ROUNDS ?? 4);
const roundSeconds = Number(process.env.BENCH_PEER_ROUND_SECONDS ?? 3);
const settleSeconds = Number(process.env.BENCH_PEER_SETTLE_SECONDS ?? 5);
// Glewlwyd 2.7.5 answers some requests 500 with 8 in flight (its log: "Error executing sql query" storing a
// refresh token), on SQLite and PostgreSQL alike. By default that fails the bench; with this set its failures are
// counted and shown beside its figures instead (KPI ID's failures always fail the bench).
const tolerateGlewlwydFailures = process.env.BENCH_PEER_TOLERATE_GLEWLWYD_FAILURES === "1";

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** One argon2id check with the service's parameters, timed here before either server starts (median of 12). */
async function timeArgon2Check(argon2: RunningKpiId["argon2"]): Promise<number> {
  const stored = await hash(password, { algorithm: 2, ...argon2 });
  const times: number[] = [];
  for (let i = 0; i < 12; i++) {
    const began = performance.now();
    if (!(await verify(stored, password))) throw new Error("argon2id verify failed");
    times.push(performance.now() - began);
  }
  return median(times);
}

function kpiIdProvider(kpiId: RunningKpiId): CodeFlowProvider {
  return {
    name: "KPI ID",
    origin: kpiId.origin,
    authorizePath: "/oidc/auth",
    tokenPath: "/oidc/token",
    client: kpiId.client,
    scope: "openid profile",
    // A first-party application's consent is given without a screen, so this adds no page, only the
    // interaction the provider must then open (a plain sign-in resumes without one: docs/performance.md).
    offlineAuthorizeParameters: { scope: "openid profile offline_access", prompt: "consent" },
    // The sign-in page's two POSTs (POST /api/auth, /api/auth/internal); answers the interaction to go back to.
    submitPassword: (browser: TestBrowser, username: string, secret: string) => browser.signIn(username, secret),
    pid: kpiId.server.pid,
  };
}

function glewlwydProvider(glewlwyd: RunningGlewlwyd, client: CodeFlowProvider["client"]): CodeFlowProvider {
  return {
    name: "Glewlwyd",
    origin: glewlwyd.origin,
    authorizePath: "/api/oidc/auth",
    tokenPath: "/api/oidc/token",
    client,
    scope: "openid",
    offlineAuthorizeParameters: {},
    // Its login page's POST /api/auth/ (a session cookie), then the same authorization with g_continue.
    async submitPassword(browser, username, secret, authorizeUrl) {
      const response = await browser.request("/api/auth/", {
        method: "POST",
        body: JSON.stringify({ username, password: secret }),
        headers: { "content-type": "application/json" },
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST /api/auth/ answered ${response.status} ${text}`);
      return `${authorizeUrl}&g_continue`;
    },
    pid: glewlwyd.pid,
  };
}

type Operation = "sign-in" | "sign-in with a refresh token" | "refresh";

/**
 * The two sides of one figure. Refreshes continue each worker's own chain (`chains`, begun by the warm-up's
 * sign-ins with a refresh token): a refresh token works once, so two workers cannot share one.
 */
function sidesFor(
  providers: readonly [CodeFlowProvider, CodeFlowProvider],
  chains: Map<CodeFlowProvider, Tokens[]>,
  operation: Operation,
): [Side, Side] {
  const side = (provider: CodeFlowProvider): Side => {
    const chain = chains.get(provider) ?? [];
    const username = (worker: number) => people[worker]?.username ?? "";
    const recover = async (worker: number) => {
      // A failed refresh may have used up the token: the worker begins a new chain (not counted as an operation).
      if (operation === "refresh") {
        chain[worker] = await signInThroughCodeFlow(provider, username(worker), password, { offline: true });
      }
    };
    return {
      name: provider.name,
      pid: provider.pid,
      ...(tolerateGlewlwydFailures && provider.name === "Glewlwyd" ? { tolerateFailures: { recover } } : {}),
      async operation(worker) {
        if (operation === "refresh") {
          const current = chain[worker];
          if (!current) throw new Error(`worker ${worker} has no refresh token`);
          chain[worker] = await refreshTokens(provider, current.refresh_token);
          return;
        }
        const offline = operation === "sign-in with a refresh token";
        await signInThroughCodeFlow(provider, username(worker), password, { offline });
      },
    };
  };
  return [side(providers[0]), side(providers[1])];
}

function failedText(glewlwyd: SideTotals): string {
  return glewlwyd.failures === 0
    ? "none failed"
    : `KPI ID none failed, Glewlwyd ${glewlwyd.failures} FAILED (500s, left out of its rate)`;
}

function measurement(label: string, totals: SideTotals): Measurement {
  return { label, value: totals.rate, unit: "/s", p50Ms: totals.p50Ms, p99Ms: totals.p99Ms };
}

export async function run(): Promise<Comparison[]> {
  if (!glewlwydInstalled()) {
    console.log("  skipped: Glewlwyd is not installed (apt-get install glewlwyd, Debian 12 or later)\n");
    return [];
  }
  if (!process.env.DATABASE_URL) {
    console.log(
      "  skipped: KPI ID runs on PostgreSQL here; set DATABASE_URL (a scratch database is made and dropped)\n",
    );
    return [];
  }
  const argon2 = testConfig().argon2;
  const argon2Ms = await timeArgon2Check(argon2);
  const glewlwydClient = { id: "bench-relying-party", secret: randomBytes(32).toString("base64url") };
  let kpiId: RunningKpiId | undefined;
  let glewlwyd: RunningGlewlwyd | undefined;
  try {
    kpiId = await startKpiIdProcess(people, password, redirectUri);
    glewlwyd = await startGlewlwyd({
      adminDatabaseUrl: process.env.DATABASE_URL,
      argon2Ms,
      people,
      password,
      client: glewlwydClient,
      redirectUri,
    });
    const providers = [kpiIdProvider(kpiId), glewlwydProvider(glewlwyd, glewlwydClient)] as const;
    const argon2Text = `argon2id m=${argon2.memoryCost} KiB t=${argon2.timeCost} p=${argon2.parallelism}`;
    const bcryptText = `bcrypt cost ${glewlwyd.bcryptCost}`;
    console.log(
      `  KPI ID: the production command, NODE_ENV=production, ${argon2Text} in its process ` +
        `(one check ${argon2Ms.toFixed(1)} ms here).\n` +
        `  Glewlwyd ${glewlwydVersion()} (Debian's package): ${bcryptText} by pgcrypto in PostgreSQL (one check ` +
        `${glewlwyd.bcryptMs.toFixed(1)} ms here: the cost nearest argon2id's time, not memory-hard); client ` +
        "secret at bcrypt's lowest cost, 4 (KPI ID checks a client secret with one SHA-256).\n" +
        "  Both on the same PostgreSQL server (a scratch database each); the same driver (authorize, password, code, " +
        "token with PKCE S256 and client_secret_basic); RS256 with 2048-bit keys; Glewlwyd's access token is a " +
        "signed JWT (one more RSA signature per code exchange), KPI ID's is opaque. Neither serves its sign-in " +
        "page here (404).\n",
    );
    // Warm-up, and the first refresh token of every worker's chain: one sign-in per person on each server.
    const chains = new Map(providers.map((provider): [CodeFlowProvider, Tokens[]] => [provider, []]));
    for (const provider of providers) {
      for (const [index, person] of people.entries()) {
        const chain = chains.get(provider) ?? [];
        chain[index] = await signInThroughCodeFlow(provider, person.username, password, { offline: true });
      }
    }
    await sleep(settleSeconds);
    const idle = { kpiId: kpiId.server.memory().rssMiB, glewlwyd: procStatusMiB(glewlwyd.pid, "VmRSS") };
    const libraryIdleMiB = await libraryAloneIdleMiB(settleSeconds);

    const comparisons: Comparison[] = [];
    const scenarios: [Operation, number][] = [
      ["sign-in", 1],
      ["sign-in", maxInFlight],
      ["sign-in with a refresh token", maxInFlight],
      ["refresh", 1],
      ["refresh", maxInFlight],
    ];
    const labels: Record<Operation, string> = {
      "sign-in": "OIDC password sign-ins",
      "sign-in with a refresh token": "OIDC sign-ins with a refresh token",
      refresh: "refresh_token grants (rotation)",
    };
    const notes: Record<Operation, string> = {
      "sign-in": `${argon2Text} vs ${bcryptText}; scope "openid profile" vs "openid" (Glewlwyd's answer carries a refresh token anyway)`,
      "sign-in with a refresh token":
        "KPI ID asks offline_access with prompt=consent (an interaction the plain sign-in does without); Glewlwyd's is its plain sign-in",
      refresh:
        "KPI ID's answer carries a new ID token, Glewlwyd's none (its access token is a JWT: one RSA signature each)",
    };
    for (const [operation, inFlight] of scenarios) {
      const sides = sidesFor(providers, chains, operation);
      const [ours, theirs] = await interleavedRounds(sides, { inFlight, rounds, roundSeconds });
      const what = labels[operation];
      comparisons.push({
        subject: measurement(`KPI ID ${what}, ${inFlight} in flight`, ours),
        baseline: measurement(`Glewlwyd ${what}, ${inFlight} in flight`, theirs),
        method:
          `${inFlight} in flight${inFlight > 1 ? " (each its own person)" : ""}, ${rounds} alternating rounds × ` +
          `${roundSeconds} s, ${ours.operations} and ${theirs.operations} done, ${failedText(theirs)}; server CPU per operation ` +
          `${ours.cpuMsPerOperation.toFixed(1)} ms (KPI ID; PostgreSQL's own not counted) and ` +
          `${theirs.cpuMsPerOperation.toFixed(1)} ms (Glewlwyd; its bcrypt runs in PostgreSQL, not counted); ${notes[operation]}`,
      });
    }
    const peak = { kpiId: kpiId.server.memory().peakMiB, glewlwyd: procStatusMiB(glewlwyd.pid, "VmHWM") };
    await sleep(settleSeconds);
    const after = { kpiId: kpiId.server.memory().rssMiB, glewlwyd: procStatusMiB(glewlwyd.pid, "VmRSS") };
    // The source (no current bundle) idles some 40 MiB above the bundle: the rows say which one ran.
    const form =
      staleBundleReason() === undefined ? "the bundle" : "the TypeScript source (no current bundle: npm run build)";
    const memoryRow = (label: string, values: { kpiId: number; glewlwyd: number }, method: string): Comparison => ({
      subject: { label: `KPI ID process, ${label}`, value: values.kpiId, unit: "MiB" },
      baseline: { label: `Glewlwyd process, ${label}`, value: values.glewlwyd, unit: "MiB" },
      method: `${method}; KPI ID ran ${form}; issue 41's goal: KPI ID at most 5× Glewlwyd; the PostgreSQL server both use not counted`,
    });
    comparisons.push(
      memoryRow(
        "idle RSS after start-up",
        idle,
        `VmRSS ${settleSeconds} s after start-up, set-up and one sign-in per person`,
      ),
      {
        subject: { label: "oidc-provider alone (in-memory adapter), idle RSS", value: libraryIdleMiB, unit: "MiB" },
        baseline: { label: "Glewlwyd process, idle RSS after start-up", value: idle.glewlwyd, unit: "MiB" },
        method:
          `VmRSS ${settleSeconds} s after start-up, ${libraryRequests} discovery and JWKS requests and a full ` +
          "collection, the production flags; the library the service is built on, as it ships, with nothing of the " +
          `service: ${goalRoom(5 * idle.glewlwyd - libraryIdleMiB)} (KPI ID adds ` +
          `${(idle.kpiId - libraryIdleMiB).toFixed(1)} MiB to it)`,
      },
      memoryRow("peak RSS", peak, "VmHWM over the process' life, read as the load ended"),
      memoryRow("RSS after the load", after, `VmRSS ${settleSeconds} s after the last round`),
    );
    return comparisons;
  } finally {
    await glewlwyd?.stop();
    await kpiId?.stop();
  }
}
