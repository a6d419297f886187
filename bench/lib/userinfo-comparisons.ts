import { httpLoad } from "./http-load.ts";
import { roundOrder } from "./interleaved-rounds.ts";
import { startMemoryProvider } from "./memory-provider.ts";
import type { Comparison } from "./types.ts";

// The userinfo rows of oidc.bench.ts.
const loadSeconds = 5;
const userinfoRounds = 6;
const userinfoRoundSeconds = 1;

export async function compareUserinfo(origin: string, accessToken: string, bareUrl: string): Promise<Comparison> {
  const headers = { authorization: `Bearer ${accessToken}` };
  const measured = await httpLoad(`${origin}/oidc/me`, loadSeconds, headers);
  if (measured.failed > 0) throw new Error(`${measured.failed} userinfo requests failed`);
  const bare = await httpLoad(`${bareUrl}/me`, loadSeconds, headers);
  return {
    subject: {
      label: "GET /oidc/me (userinfo: token lookup, person, claims)",
      value: measured.requestsPerSecond,
      unit: "req/s",
    },
    baseline: { label: "bare Fastify route with the same JSON", value: bare.requestsPerSecond, unit: "req/s" },
    method: `autocannon, 10 connections × ${loadSeconds} s each on loopback`,
  };
}

/**
 * Userinfo against oidc-provider's own, with its in-memory adapter and no database (the floor of issue 41); and the
 * same library served through the service's HTTP stack (Fastify, security headers, metrics, mount.ts), still with no
 * database: the floor under the goal that the stack itself sets, measured in the same alternating rounds.
 */
export async function compareUserinfoWithLibrary(
  origin: string,
  accessToken: string,
  claims: Record<string, unknown>,
): Promise<Comparison[]> {
  const [library, stack] = await Promise.all([
    startMemoryProvider(claims),
    startMemoryProvider(claims, { serving: "service-stack" }),
  ]);
  // Alternating rounds of autocannon, each side's rate the mean of its rounds' (the rounds are of equal length).
  const rates = { ours: [] as number[], library: [] as number[], stack: [] as number[] };
  const targets = {
    ours: [`${origin}/oidc/me`, accessToken],
    library: [library.userinfoUrl, library.accessToken],
    stack: [stack.userinfoUrl, stack.accessToken],
  } as const;
  const load = async (side: keyof typeof rates) => {
    const [url, token] = targets[side];
    const measured = await httpLoad(url, userinfoRoundSeconds, { authorization: `Bearer ${token}` });
    if (measured.failed > 0) throw new Error(`${measured.failed} userinfo requests failed (${side})`);
    rates[side].push(measured.requestsPerSecond);
  };
  // Each round starts with the next side (interleaved-rounds.ts's order), so each side takes every place.
  const sides = ["ours", "library", "stack"] as const;
  try {
    // The library's instances are new (the service's code ran the first userinfo row): warmed before they are timed.
    for (const side of ["library", "stack"] as const)
      await httpLoad(targets[side][0], 1, { authorization: `Bearer ${targets[side][1]}` });
    for (let round = 0; round < userinfoRounds; round++)
      for (const index of roundOrder(sides.length, round)) await load(sides[index] ?? "ours");
  } finally {
    await Promise.all([library.close(), stack.close()]);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const method = `autocannon, 10 connections on loopback, ${userinfoRounds} rounds of ${userinfoRoundSeconds} s each, the three sides alternating`;
  const libraryAlone = {
    label: "oidc-provider's own userinfo, in-memory adapter, no database",
    value: mean(rates.library),
    unit: "req/s",
  };
  const throughStack = {
    label: "oidc-provider's userinfo through the service's HTTP stack (Fastify, headers, metrics), no database",
    value: mean(rates.stack),
    unit: "req/s",
  };
  return [
    {
      subject: { label: "GET /oidc/me (userinfo), measured again", value: mean(rates.ours), unit: "req/s" },
      baseline: libraryAlone,
      method: `${method}; issue 63's goal ≥ 0.8× this floor`,
      goal: { name: "userinfo", floor: "oidc-provider-userinfo-alone", target: 0.8, bound: "atLeast" },
    },
    {
      subject: throughStack,
      baseline: libraryAlone,
      method: `${method}; what the HTTP stack alone leaves of the library's rate: the goal's 0.8× lies below it when this is below 0.8`,
    },
    {
      subject: { label: "GET /oidc/me (userinfo), measured again", value: mean(rates.ours), unit: "req/s" },
      baseline: throughStack,
      method: `${method}; the database-backed adapter, caches and account lookup against the library's memory, behind the same stack`,
    },
  ];
}
