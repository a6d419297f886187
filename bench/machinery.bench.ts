// npm run bench -- machinery: each piece of benchmark-driven machinery (apps/server/src/platform/bench-switches.ts)
// measured on the benches it was built for, switched on and off in alternating rounds of the same process, with the
// statements per login either way. docs/performance.md, "Benchmark-driven machinery", says the rule and the table.

import { productionNodeFlags } from "@kpi-id/server/production-process";
import {
  addOidcClient,
  addPerson,
  createApplication,
  createTestApp,
  freePort,
  grantAccess,
  issueTicket,
  type MachineryPiece,
  passwordLoginCodeFlow,
  signedInCodeFlowTokens,
  signIn,
  switchMachinery,
  tokenRequest,
} from "@kpi-id/server/testing";
import { type OnOff, onAndOff, type Workload } from "./lib/machinery-rounds.ts";
import { redirectUri } from "./lib/oidc-client.ts";
import type { Comparison } from "./lib/types.ts";
import { measureService } from "./memory.bench.ts";

export const title = "Benchmark-driven machinery, each piece on and off in the same run (issue 76)";

/** A piece's lines in apps/server/src (its own files and its lines in others'), counted by hand: the doc's table. */
const pieces: { piece: MachineryPiece; lines: number; workloads: string[] }[] = [
  { piece: "deferred-writes", lines: 130, workloads: ["refresh", "login"] },
  { piece: "early-write", lines: 40, workloads: ["refresh"] },
  { piece: "listen-caches", lines: 790, workloads: ["userinfo", "user", "ticket-exchange"] },
  { piece: "parsed-clients", lines: 76, workloads: ["userinfo", "refresh"] },
  { piece: "precompiled", lines: 75, workloads: ["ticket-exchange"] },
  { piece: "zod-bypass", lines: 30, workloads: ["ticket-exchange"] },
  { piece: "compiled-serializer", lines: 17, workloads: ["user", "ticket-exchange"] },
];

const quietCollectionLines = 100;

/**
 * Kept when it gains this much on a bench it was built for, in rate or in CPU per operation, or when switching it off
 * changes a login's statements.
 */
const keepFromGain = 1.05;
const rounds = Number(process.env.BENCH_MACHINERY_ROUNDS ?? 8);
// The exchange commits a durable write each time: its rounds spread the most on a shared machine.
const ticketRounds = rounds + 4;
const roundSeconds = 0.5;
const ticketsPerRound = 100;
const password = "bench passphrase for the machinery run";

export async function run(): Promise<Comparison[]> {
  const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const test = await createTestApp(kind, { PUBLIC_URL: origin, PORT: String(port), TICKET_TTL_SECONDS: "3600" });
  const { app } = test;
  try {
    await app.listen({ host: "127.0.0.1", port });
    const person = await addPerson(
      app,
      { username: "bench", fullName: "Олена Коваленко", email: "b@kpi.ua" },
      password,
    );
    const rp = await addOidcClient(app, {
      redirectUris: [redirectUri],
      scopes: ["openid", "profile", "email", "kpi", "offline_access"],
      firstParty: true,
    });
    await grantAccess(app.db, person.id, rp.application.id);
    const client = { id: rp.application.id, secret: rp.secret };
    const first = await signedInCodeFlowTokens(app, origin, client, { username: "bench", password }, redirectUri);
    let refreshToken = first.refresh_token;
    const cookie = await signIn(app, "bench", password, { origin });
    const site = await createApplication(app.db, {
      name: "campus",
      title: "Campus",
      description: "A connected site",
      callbackUrl: "https://campus.kpi.ua/callback",
    });
    await grantAccess(app.db, person.id, site.application.id);
    const tickets: string[] = [];
    const ticketsNeeded = pieces.reduce(
      (sum, { workloads }) =>
        sum + (workloads.includes("ticket-exchange") ? 2 * (ticketRounds * ticketsPerRound + 10) : 0),
      10,
    );
    for (let i = 0; i < ticketsNeeded; i++)
      tickets.push(
        await issueTicket(
          app.db,
          { applicationId: site.application.id, userId: person.id, authMethod: "PASSWORD" },
          3600,
          new Date(),
        ),
      );
    const expectOk = (what: string, status: number, body: string) => {
      if (status !== 200) throw new Error(`${what} answered ${status} ${body.slice(0, 200)}`);
    };
    let logins = 0;
    const workloads: Record<string, Workload> = {
      refresh: {
        name: "refresh-1 (POST /oidc/token, rotation, one in flight)",
        operation: async () => {
          refreshToken = (
            await tokenRequest(origin, client, { grant_type: "refresh_token", refresh_token: refreshToken })
          ).refresh_token;
        },
      },
      userinfo: {
        name: "userinfo (GET /oidc/me, app.inject)",
        operation: async () => {
          const answer = await app.inject({
            url: "/oidc/me",
            headers: { authorization: `Bearer ${first.access_token}` },
          });
          expectOk("userinfo", answer.statusCode, answer.body);
        },
      },
      user: {
        name: "GET /user (app.inject)",
        operation: async () => {
          const answer = await app.inject({ url: "/user", headers: { cookie } });
          expectOk("GET /user", answer.statusCode, answer.body);
        },
      },
      "ticket-exchange": {
        name: "ticket exchange (POST /api/ticket, app.inject)",
        operationsPerRound: ticketsPerRound,
        operation: async () => {
          const ticketId = tickets.pop();
          if (!ticketId) throw new Error("out of tickets");
          const payload = { ticketId, appId: site.application.id, appSecret: site.secret };
          const answer = await app.inject({ method: "POST", url: "/api/ticket", payload });
          expectOk("ticket exchange", answer.statusCode, answer.body);
        },
      },
      login: {
        name: "whole OpenID Connect password login, one in flight",
        operation: async () => {
          logins += 1;
          const username = `login${logins}`;
          const someone = await addPerson(app, { username, fullName: "Людина" }, password);
          await grantAccess(app.db, someone.id, rp.application.id);
          await passwordLoginCodeFlow(origin, client, { username, password }, redirectUri);
        },
      },
    };
    // Statements of one whole login (statement-counts.test.ts holds it at 12 or 13), after one login warmed the same way.
    const loginStatements = async (piece: MachineryPiece, on: boolean): Promise<number> => {
      switchMachinery(piece, on);
      try {
        await workloads.login?.operation();
        return await statementsPerLoginOfKnownPerson();
      } finally {
        switchMachinery(piece, true);
      }
    };
    let countedLogins = 0;
    /** The flow's statements only: its person is made before counting. */
    const statementsPerLoginOfKnownPerson = async (): Promise<number> => {
      countedLogins += 1;
      const username = `counted${countedLogins}`;
      const someone = await addPerson(app, { username, fullName: "Людина" }, password);
      await grantAccess(app.db, someone.id, rp.application.id);
      let seen = 0;
      const stop = test.database.handle.onStatement(() => {
        seen += 1;
      });
      try {
        await passwordLoginCodeFlow(origin, client, { username, password }, redirectUri);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        stop();
      }
      return seen;
    };

    const comparisons: Comparison[] = [];
    for (const { piece, lines, workloads: names } of pieces) {
      let best: OnOff | undefined;
      const measuredGains: OnOff[] = [];
      for (const name of names) {
        const workload = workloads[name];
        if (!workload) throw new Error(`no workload ${name}`);
        const measured = await onAndOff(piece, workload, {
          rounds: name === "login" ? Math.min(rounds, 4) : name === "ticket-exchange" ? ticketRounds : rounds,
          roundSeconds: name === "login" ? 2 : roundSeconds,
          warmupOperations: name === "login" ? 2 : 10,
        });
        console.log(
          `  ${piece} on ${workload.name}: on ${measured.on.toFixed(1)} /s, off ${measured.off.toFixed(1)} /s, gain ${measured.gain.toFixed(3)}, CPU per operation off ÷ on ${measured.cpuGain.toFixed(3)}`,
        );
        if (!best || measured.gain > best.gain) best = measured;
        measuredGains.push(measured);
        comparisons.push({
          subject: { label: `${workload.name}, ${piece} on`, value: measured.on, unit: "/s" },
          baseline: { label: `the same, ${piece} off`, value: measured.off, unit: "/s" },
          method: `app in process, one in flight, ${rounds} alternating rounds of ${roundSeconds} s, medians, ${kind}`,
        });
      }
      // The fewer of two logins each way: the first statement is the application's when no cache holds it.
      const withIt = Math.min(await loginStatements(piece, true), await loginStatements(piece, true));
      const without = Math.min(await loginStatements(piece, false), await loginStatements(piece, false));
      const cpuBest = Math.max(...measuredGains.map((gain) => gain.cpuGain));
      const keep = (best?.gain ?? 0) >= keepFromGain || cpuBest >= keepFromGain || without !== withIt;
      console.log(
        `MACHINERY ${piece} lines=${lines} on=${best?.on.toFixed(1)}/s off=${best?.off.toFixed(1)}/s ` +
          `gain=${best?.gain.toFixed(3)} cpu=${cpuBest.toFixed(3)} login-statements=${withIt}/${without} keep=${keep ? "yes" : "no"}`,
      );
    }
    if (process.env.BENCH_MACHINERY_MEMORY !== "0") comparisons.push(...(await quietCollection(kind)));
    return comparisons;
  } finally {
    await test.close();
  }
}

/**
 * The quiet collection (platform/http/quiet-collection.ts) runs only with `--expose-gc`, one of the production flags:
 * the production command with and without it, one after the other (each pair's first alternating), RSS a minute after memory.bench.ts's load against idle, `rss-after-load`'s ratio (goal ≤ 1.1).
 */
async function quietCollection(kind: "postgres" | "pglite"): Promise<Comparison[]> {
  const without = productionNodeFlags.filter((flag) => flag !== "--expose-gc");
  const pairs = Number(process.env.BENCH_MACHINERY_MEMORY_PAIRS ?? 1);
  const ratios: { on: number[]; off: number[]; onAfter: number[]; offAfter: number[] } = {
    on: [],
    off: [],
    onAfter: [],
    offAfter: [],
  };
  for (let pair = 0; pair < pairs; pair++) {
    // One after the other (two production processes starting at once on a busy machine missed the minute to /ready),
    // the first of each pair alternating.
    const first = pair % 2 === 0 ? await measureService(kind) : await measureService(kind, without);
    const second = pair % 2 === 0 ? await measureService(kind, without) : await measureService(kind);
    const [on, off] = pair % 2 === 0 ? [first, second] : [second, first];
    ratios.on.push(on.after / on.idle);
    ratios.off.push(off.after / off.idle);
    ratios.onAfter.push(on.after);
    ratios.offAfter.push(off.after);
    console.log(
      `  quiet-collection pair ${pair + 1}: on idle ${on.idle.toFixed(1)} after ${on.after.toFixed(1)} MiB, ` +
        `off idle ${off.idle.toFixed(1)} after ${off.after.toFixed(1)} MiB`,
    );
  }
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
  const on = mid(ratios.on);
  const off = mid(ratios.off);
  const meets = (ratio: number) => (ratio <= 1.1 ? "yes" : "no");
  // Kept when it is what meets rss-after-load, or when it saves 5 % of the RSS after the load.
  const keep = (off > 1.1 && on <= 1.1) || mid(ratios.offAfter) / mid(ratios.onAfter) >= keepFromGain;
  console.log(
    `MACHINERY quiet-collection lines=${quietCollectionLines} on=${mid(ratios.onAfter).toFixed(1)}MiB off=${mid(ratios.offAfter).toFixed(1)}MiB ` +
      `gain=${(mid(ratios.offAfter) / mid(ratios.onAfter)).toFixed(3)} rss-after-load=${on.toFixed(2)}/${off.toFixed(2)} ` +
      `met=${meets(on)}/${meets(off)} keep=${keep ? "yes" : "no"}`,
  );
  return [
    {
      subject: { label: `RSS a minute after the load ÷ idle, quiet collection on, ${kind}`, value: on, unit: "×" },
      baseline: { label: "the same without --expose-gc (no quiet collection)", value: off, unit: "×" },
      method: `production command, the two one after the other, median of ${pairs} pairs`,
    },
  ];
}
